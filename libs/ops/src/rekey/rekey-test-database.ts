import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

import { createDatabase, testDatabaseServer } from '@onramp/testing';

export interface RekeyDatabase {
  /** The key the spec seals its rows under. */
  oldKey: string;
  /** The newest key of the ring: what the rekey re-seals to. */
  newKey: string;
  databaseUrl: string;
  db: Client;
}

/**
 * What each rekey integration spec starts from: a fresh database holding only the tables `schema` creates
 * (the services' migrations reduced to the columns the rekey touches) and two random keys. Registers the
 * spec's beforeAll/afterAll; `databaseUrl` and `db` are set once beforeAll ran.
 */
export function useRekeyDatabase(schema: (db: Client) => Promise<unknown>): RekeyDatabase {
  const rekey = {
    oldKey: randomBytes(32).toString('hex'),
    newKey: randomBytes(32).toString('hex'),
  } as RekeyDatabase;
  beforeAll(async () => {
    rekey.databaseUrl = await createDatabase(testDatabaseServer());
    rekey.db = new Client({ connectionString: rekey.databaseUrl });
    await rekey.db.connect();
    await schema(rekey.db);
  });
  afterAll(() => rekey.db?.end());
  return rekey;
}
