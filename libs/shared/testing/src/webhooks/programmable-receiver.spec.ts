import { request } from 'node:http';

import { ProgrammableReceiver } from './programmable-receiver';

const post = (url: string, body: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });

describe('ProgrammableReceiver', () => {
  const receiver = new ProgrammableReceiver();
  let url: string;

  beforeAll(async () => {
    url = await receiver.start();
  });
  afterAll(() => receiver.stop());

  it('logs what it took, and forgets it when told, counting again from none', async () => {
    expect(await post(url, '{"orderUuid":"a","event":"order.completed"}')).toBe(200);
    receiver.answer = 'unavailable';
    expect(await post(url, '{"orderUuid":"b"}')).toBe(503);
    expect(receiver.log.map((d) => d.answered)).toEqual([200, 503]);
    expect(receiver.acceptedCount()).toBe(1);

    receiver.forget();
    expect(receiver.log).toEqual([]);
    expect(receiver.accepted()).toEqual([]);
    expect(receiver.acceptedCount()).toBe(0);

    receiver.answer = 'ok';
    expect(await post(url, '{"orderUuid":"c"}')).toBe(200);
    expect(receiver.accepted().map((d) => d.orderUuid)).toEqual(['c']);
    expect(receiver.acceptedCount()).toBe(1);
  });
});
