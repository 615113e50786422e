// Proof that the "repositories own the SQL" ban works, checked by every `npm run lint`: each line
// below would be refused in a service's file that is not a `*.repository.ts`, and its disable comment
// is what lets it pass. If the ban stopped catching one, the comment would be unused, ESLint would
// warn ("unused eslint-disable directive") and `--max-warnings=0` would fail the lint. Nothing
// imports this file; it is never built.
import { DataSource, EntityManager } from 'typeorm';

class OrderRow {
  uuid!: string;
}

export async function sqlOutsideARepository(manager: EntityManager, dataSource: DataSource): Promise<void> {
  // eslint-disable-next-line no-restricted-syntax
  await dataSource.query(
    // eslint-disable-next-line no-restricted-syntax
    `SELECT uuid FROM orders WHERE uuid = $1 FOR UPDATE SKIP LOCKED`,
    ['x'],
  );
  // eslint-disable-next-line no-restricted-syntax
  await manager.query('DELETE FROM orders WHERE uuid = $1', ['x']);
  // eslint-disable-next-line no-restricted-syntax
  await manager.createQueryBuilder(OrderRow, 'o').getMany();
  // eslint-disable-next-line no-restricted-syntax
  await dataSource.getRepository(OrderRow).findOneBy({ uuid: 'x' });
  // eslint-disable-next-line no-restricted-syntax
  await manager.update(OrderRow, { uuid: 'x' }, { uuid: 'y' });
  // eslint-disable-next-line no-restricted-syntax
  await manager.findOneBy(OrderRow, { uuid: 'x' });
  // eslint-disable-next-line no-restricted-syntax
  await dataSource.manager.insert(OrderRow, { uuid: 'x' });
  // eslint-disable-next-line no-restricted-syntax
  const sql = 'UPDATE orders SET status = $2 WHERE uuid = $1';
  // eslint-disable-next-line no-restricted-syntax
  const upsert = `INSERT INTO orders (uuid) VALUES ($1) ON CONFLICT DO NOTHING`;
  void [sql, upsert];
}
