import { armedCrashPoints, crashPoint } from './crash-point';

describe('crashPoint', () => {
  let kill: jest.SpyInstance;
  beforeEach(() => {
    kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
  });
  afterEach(() => kill.mockRestore());

  it('kills the process only at a named point', () => {
    const armed = armedCrashPoints('after-broadcast, awaiting-receipt', 'sandbox');
    crashPoint('after-sign', armed);
    expect(kill).not.toHaveBeenCalled();
    crashPoint('awaiting-receipt', armed);
    expect(kill).toHaveBeenCalledWith(process.pid, 'SIGKILL');
  });

  it('is never honoured in production mode', () => {
    crashPoint('after-sign', armedCrashPoints('after-sign', 'production'));
    expect(kill).not.toHaveBeenCalled();
  });
});
