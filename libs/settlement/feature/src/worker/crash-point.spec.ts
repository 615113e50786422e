import { crashPoint } from './crash-point';

describe('crashPoint', () => {
  let kill: jest.SpyInstance;
  beforeEach(() => {
    kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
  });
  afterEach(() => kill.mockRestore());

  it('kills the process only at a named point', () => {
    crashPoint('after-sign', { SETTLEMENT_CRASH_POINT: 'after-broadcast, awaiting-receipt' });
    expect(kill).not.toHaveBeenCalled();
    crashPoint('awaiting-receipt', { SETTLEMENT_CRASH_POINT: 'after-broadcast, awaiting-receipt' });
    expect(kill).toHaveBeenCalledWith(process.pid, 'SIGKILL');
  });

  it('is never honoured in production mode', () => {
    crashPoint('after-sign', { SETTLEMENT_CRASH_POINT: 'after-sign', ONRAMP_MODE: 'production' });
    expect(kill).not.toHaveBeenCalled();
  });
});
