import { EntityManager } from 'typeorm';

import { beforeNextStatement } from './begin-with-first-statement';

// A parameter of a statement sent ahead of another: as text, as Postgres reads it.
export type TextParam = string | number | bigint | boolean | Date | null | undefined;

// A write whose result the transaction never reads goes out in front of the transaction's next
// statement, or with its COMMIT, instead of in a round trip of its own (beforeNextStatement). If it
// fails, the statement it travels with fails with its error, and the transaction rolls back as it
// would have. So the write must return no rows, and any check of what it did must be in its own SQL
// (an error raised there), not in the caller. Outside a transaction of ours, it runs at once.
// Only for a write nothing before the next statement depends on.
export async function writeWithNextStatement(
  manager: EntityManager,
  sql: string,
  params: ReadonlyArray<TextParam | readonly TextParam[]>,
): Promise<void> {
  const prelude = { text: sql, values: params.map(paramText) };
  if (!beforeNextStatement(manager.queryRunner, prelude)) await manager.query(sql, [...params]);
}

// Dates as ISO 8601 with their zone (every timestamp column is timestamptz); arrays as array
// literals with every element quoted, so a comma or brace in a value stays inside it.
export function paramText(value: TextParam | readonly TextParam[]): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return `{${value.map(elementText).join(',')}}`;
  return scalarText(value as TextParam) as string;
}

function elementText(value: TextParam): string {
  const text = scalarText(value);
  return text === null ? 'NULL' : `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

function scalarText(value: TextParam): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return String(value);
}
