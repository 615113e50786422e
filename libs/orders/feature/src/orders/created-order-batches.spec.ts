import { DataSource } from 'typeorm';

import { CreatedOrderAnswer, CreatedOrderBatches } from './created-order-batches';
import { OrderEntity } from './order.entity';
import { OrdersRepository, OutboxInsert } from './orders.repository';

const event: OutboxInsert = { table: 'orders.outbox', values: ['e', 'order.created', 'k', '{}', '{}', '1'] };
const order = (uuid: string): OrderEntity => Object.assign(new OrderEntity(), { uuid });
const yes: CreatedOrderAnswer = { created: true, eligible: true };

// The repository's two statements, each held until the test lets it finish.
function fakeRepository() {
  const calls: Array<{ kind: 'one' | 'many'; uuids: string[]; finish: (err?: Error) => void }> = [];
  const repository = {
    insertCreatedIfEligible: (_db: unknown, o: OrderEntity) =>
      new Promise<CreatedOrderAnswer>((resolve, reject) =>
        calls.push({ kind: 'one', uuids: [o.uuid], finish: (err) => (err ? reject(err) : resolve(yes)) }),
      ),
    insertCreatedIfEligibleMany: (_db: unknown, items: Array<{ order: OrderEntity }>) =>
      new Promise<CreatedOrderAnswer[]>((resolve, reject) =>
        calls.push({
          kind: 'many',
          uuids: items.map((i) => i.order.uuid),
          finish: (err) => (err ? reject(err) : resolve(items.map(() => yes))),
        }),
      ),
  };
  return { calls, repository: repository as unknown as OrdersRepository };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CreatedOrderBatches', () => {
  const dataSource = { manager: {} } as DataSource;

  it('writes an order that finds nothing in flight at once, alone', async () => {
    const { calls, repository } = fakeRepository();
    const batches = new CreatedOrderBatches(dataSource, repository);
    const answer = batches.insert(order('a'), event);
    expect(calls.map((c) => [c.kind, c.uuids])).toEqual([['one', ['a']]]);
    calls[0]?.finish();
    await expect(answer).resolves.toEqual(yes);
  });

  it('puts the orders that arrive while two statements run into one', async () => {
    const { calls, repository } = fakeRepository();
    const batches = new CreatedOrderBatches(dataSource, repository);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((uuid) => batches.insert(order(uuid), event));
    expect(calls.map((c) => c.uuids)).toEqual([['a'], ['b']]);
    calls[0]?.finish();
    await settle();
    expect(calls.map((c) => [c.kind, c.uuids])).toEqual([
      ['one', ['a']],
      ['one', ['b']],
      ['many', ['c', 'd', 'e']],
    ]);
    calls[1]?.finish();
    calls[2]?.finish();
    await expect(Promise.all(answers)).resolves.toEqual([yes, yes, yes, yes, yes]);
  });

  it('writes each order of a failed shared statement again on its own, each with its own outcome', async () => {
    const { calls, repository } = fakeRepository();
    const batches = new CreatedOrderBatches(dataSource, repository);
    const answers = ['a', 'b', 'c', 'd'].map((uuid) => batches.insert(order(uuid), event));
    calls[0]?.finish();
    calls[1]?.finish();
    await settle();
    calls[2]?.finish(new Error('the statement as a whole'));
    await settle();
    expect(calls.slice(3).map((c) => [c.kind, c.uuids])).toEqual([
      ['one', ['c']],
      ['one', ['d']],
    ]);
    calls[3]?.finish();
    calls[4]?.finish(new Error('d alone'));
    await expect(answers[2]).resolves.toEqual(yes);
    await expect(answers[3]).rejects.toThrow('d alone');
  });
});
