import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('returns the first truthy value', async () => {
    let calls = 0;
    await expect(
      waitFor(() => (++calls >= 3 ? `done after ${calls}` : false), { intervalMs: 1 }),
    ).resolves.toBe('done after 3');
  });

  it('treats a throwing predicate as not ready and reports its last error on timeout', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('connection refused');
        },
        { timeoutMs: 30, intervalMs: 5, description: 'the broker' },
      ),
    ).rejects.toThrow(/waiting for the broker: last error: connection refused/);
  });
});
