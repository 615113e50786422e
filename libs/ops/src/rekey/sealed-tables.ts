import { Client } from 'pg';

import { FieldCipher, ibanIndexes, isSealed } from '@onramp/crypto';

// What a rekey walks: the sealed columns of a table, each with the associated data its service binds
// it with, and a blind index to recompute beside a sealed IBAN.
export interface SealedTable {
  name: string; // schema.table, as in the report
  id: string; // the primary key column
  idType?: 'uuid' | 'text'; // of the primary key (default uuid)
  columns: { column: string; context: (id: string) => string }[];
  ibanIndex?: { column: string; of: string }; // a blind index kept beside a sealed IBAN
}

export interface ResealReport {
  keyId: string;
  resealed: Record<string, number>; // rows rewritten per table
  missing: string[]; // tables this database does not have (a service not deployed here)
}

// Re-seals the tables' columns under the newest key of the ring (values still plain get sealed), in
// batches of `batchSize`, each in its own transaction with the rows locked (SKIP LOCKED, so running
// services are not blocked); a row is only rewritten if it is still what was read, and only rows
// with a value not yet under the newest key are selected: safe beside the services, interruptible
// and resumable. A table the database does not have is reported, not an error.
export async function resealTables(
  databaseUrl: string,
  ring: readonly string[],
  tables: readonly SealedTable[],
  batchSize = 200,
): Promise<ResealReport> {
  const cipher = new FieldCipher(ring);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const report: ResealReport = { keyId: cipher.keyId, resealed: {}, missing: [] };
  try {
    for (const table of tables) {
      const { rows } = await client.query<{ exists: boolean }>(
        `SELECT to_regclass($1) IS NOT NULL AS exists`,
        [table.name],
      );
      if (!rows[0]?.exists) {
        report.missing.push(table.name);
        continue;
      }
      report.resealed[table.name] = await inBatches(client, () =>
        resealBatch(client, cipher, ring, table, batchSize),
      );
    }
    return report;
  } finally {
    await client.end();
  }
}

async function resealBatch(
  client: Client,
  cipher: FieldCipher,
  ring: readonly string[],
  table: SealedTable,
  batchSize: number,
): Promise<number> {
  const cols = table.columns.map((c) => c.column);
  const stale = cols.map((c) => `(${c} IS NOT NULL AND split_part(${c}, '.', 2) <> $1)`).join(' OR ');
  const { rows } = await client.query<Record<string, string | null>>(
    `SELECT ${table.id}::text AS id, ${cols.join(', ')} FROM ${table.name}
     WHERE ${stale} ORDER BY ${table.id} LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [cipher.keyId, batchSize],
  );
  for (const row of rows) {
    const id = row.id as string;
    const next: Record<string, string | null> = {};
    const plain: Record<string, string | null> = {};
    for (const { column, context } of table.columns) {
      const value = row[column];
      plain[column] = value === null ? null : isSealed(value) ? cipher.decrypt(value, context(id)) : value;
      next[column] =
        value === null || (isSealed(value) && !cipher.isStale(value))
          ? value
          : cipher.encrypt(plain[column] as string, context(id));
    }
    const sets = cols.map((c, i) => `${c} = $${i + 2}`);
    const params: (string | null)[] = [id, ...cols.map((c) => next[c])];
    if (table.ibanIndex) {
      const iban = plain[table.ibanIndex.of];
      sets.push(`${table.ibanIndex.column} = $${params.length + 1}`);
      params.push(iban === null ? null : ibanIndexes([ring[0]], iban)[0]);
    }
    const unchanged = cols.map((c, i) => `${c} IS NOT DISTINCT FROM $${params.length + i + 1}`);
    params.push(...cols.map((c) => row[c]));
    await client.query(
      `UPDATE ${table.name} SET ${sets.join(', ')} WHERE ${table.id} = $1::${table.idType ?? 'uuid'} AND ${unchanged.join(' AND ')}`,
      params,
    );
  }
  return rows.length;
}

// Runs `batch` in its own transaction until it handles no row: each batch commits on its own, so a
// stopped rekey resumes where it was. Returns the rows handled in all.
export async function inBatches(client: Client, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    await client.query('BEGIN');
    try {
      const n = await batch();
      await client.query('COMMIT');
      total += n;
      if (n === 0) return total;
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  }
}
