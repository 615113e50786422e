interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

// TypeORM's postgres driver answers UPDATE/DELETE with [rows, rowCount] and SELECT/INSERT with rows;
// this always gives the rows.
export async function queryRows<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const raw = await db.query(sql, params);
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number')
    return raw[0] as T[];
  return raw as T[];
}
