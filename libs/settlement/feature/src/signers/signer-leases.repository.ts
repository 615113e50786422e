import { DataSource, EntityManager } from 'typeorm';

import { SETTLEMENT_SCHEMA } from '../config';

export const LEASES = `"${SETTLEMENT_SCHEMA}"."signer_leases"`;

// Takes the signer's lease if it is free (no row) or expired, in one statement: two processes that
// try at once are ordered by the primary key, and the later one finds the lease taken. True when
// this holder has it now (also when it already had it).
export async function tryAcquireLease(
  ds: DataSource,
  signerAddress: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  const rows: unknown[] = await ds.query(
    `INSERT INTO ${LEASES} AS l (signer_address, holder, acquired_at, heartbeat_at, expires_at)
     VALUES ($1, $2, now(), now(), now() + $3::int * interval '1 millisecond')
     ON CONFLICT (signer_address) DO UPDATE
       SET holder = EXCLUDED.holder, acquired_at = now(), heartbeat_at = now(), expires_at = EXCLUDED.expires_at
       WHERE l.expires_at < now() OR l.holder = EXCLUDED.holder
     RETURNING signer_address`,
    [signerAddress, holder, ttlMs],
  );
  return rows.length > 0;
}

// Pushes the lease's expiry on. False when it updated no row: another process took the signer
// over (this one was presumed dead), and this one must not sign with it any more.
export async function renewLease(
  ds: DataSource,
  signerAddress: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  // In a CTE: the driver answers a bare UPDATE ... RETURNING as [rows, count], a SELECT as rows.
  const [row]: Array<{ n: number }> = await ds.query(
    `WITH renewed AS (
       UPDATE ${LEASES} SET heartbeat_at = now(), expires_at = now() + $3::int * interval '1 millisecond'
       WHERE signer_address = $1 AND holder = $2
       RETURNING 1
     ) SELECT count(*)::int AS n FROM renewed`,
    [signerAddress, holder, ttlMs],
  );
  return (row?.n ?? 0) > 0;
}

// On a clean shutdown: the lease expires now, so another process need not wait for it.
export async function releaseLease(ds: DataSource, signerAddress: string, holder: string): Promise<void> {
  await ds.query(`UPDATE ${LEASES} SET expires_at = now() WHERE signer_address = $1 AND holder = $2`, [
    signerAddress,
    holder,
  ]);
}

// Inside a signing transaction, before anything is signed: whether this holder's lease is still
// live by the database's clock. The row stays share-locked until the transaction ends, so a take-over
// waits for this signing to commit, and no two processes ever sign with one key at the same time.
export async function holdsLease(
  manager: EntityManager,
  signerAddress: string,
  holder: string,
): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `SELECT 1 FROM ${LEASES} WHERE signer_address = $1 AND holder = $2 AND expires_at > clock_timestamp()
     FOR SHARE`,
    [signerAddress, holder],
  );
  return rows.length > 0;
}

export interface SignerStatusRow {
  address: string;
  nextNonce: string | null; // null: never signed with yet
  inFlight: number; // SIGNED or BROADCAST
  holder: string | null;
  live: boolean; // the lease has not expired
}

// Every signer the database knows (a nonce counter or a lease) and the given ones, for /metrics:
// the same numbers from every process.
export async function signerStatus(ds: DataSource, pool: string[]): Promise<SignerStatusRow[]> {
  const rows: Array<{
    address: string;
    next_nonce: string | null;
    in_flight: number;
    holder: string | null;
    live: boolean | null;
  }> = await ds.query(
    `WITH addresses AS (
       SELECT address FROM "${SETTLEMENT_SCHEMA}"."signers"
       UNION SELECT signer_address FROM ${LEASES}
       UNION SELECT unnest($1::text[])
     )
     SELECT a.address, g.next_nonce::text AS next_nonce, l.holder, l.expires_at > now() AS live,
            (SELECT count(*)::int FROM "${SETTLEMENT_SCHEMA}"."settlements" s
             WHERE s.signer_address = a.address AND s.state IN ('SIGNED', 'BROADCAST')) AS in_flight
     FROM addresses a
     LEFT JOIN "${SETTLEMENT_SCHEMA}"."signers" g ON g.address = a.address
     LEFT JOIN ${LEASES} l ON l.signer_address = a.address
     ORDER BY a.address`,
    [pool],
  );
  return rows.map((r) => ({
    address: r.address,
    nextNonce: r.next_nonce,
    inFlight: r.in_flight,
    holder: r.holder,
    live: r.live === true,
  }));
}
