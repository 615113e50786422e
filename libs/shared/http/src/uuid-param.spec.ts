import { ProblemException } from './problem.exception';
import { uuidParam } from './uuid-param';

describe('uuidParam', () => {
  const meta = { type: 'param' as const, data: 'merchantId' };

  it('passes a UUID through', async () => {
    const id = '0b7e7c1e-5d52-4a8e-9d7c-7b0c8b6b9c11';
    await expect(uuidParam('merchantId').transform(id, meta)).resolves.toBe(id);
  });

  it('answers anything else with a 400 problem naming the parameter', async () => {
    const error = await uuidParam('merchantId')
      .transform('nope', meta)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemException);
    expect((error as ProblemException).toBody()).toMatchObject({
      status: 400,
      detail: 'merchantId must be a UUID',
      errors: [{ field: 'merchantId', message: 'merchantId must be a UUID' }],
    });
  });
});
