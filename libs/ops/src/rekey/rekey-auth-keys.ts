import { resealTables, ResealReport, SealedTable } from './sealed-tables';

// auth's ring (AUTH_KEY_ENCRYPTION_KEY, AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS): the JWT signing keys'
// private halves, bound to their kid as auth seals them (SigningKeysService).
export const AUTH_SIGNING_KEY_TABLES: SealedTable[] = [
  {
    name: 'auth.signing_keys',
    id: 'kid',
    idType: 'text',
    columns: [{ column: 'private_key_enc', context: (kid) => kid }],
  },
];

export interface RekeyAuthKeysOptions {
  databaseUrl: string;
  keys: readonly string[]; // newest first: AUTH_KEY_ENCRYPTION_KEY, then AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS
  batchSize?: number;
}

export function rekeyAuthSigningKeys(opts: RekeyAuthKeysOptions): Promise<ResealReport> {
  return resealTables(opts.databaseUrl, opts.keys, AUTH_SIGNING_KEY_TABLES, opts.batchSize);
}
