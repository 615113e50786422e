import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { SIGNING_KEYS } from '../persistence/auth-tables';
import { SigningKeyEntity } from './signing-key.entity';

const COLUMNS = `kid, private_key_enc AS "privateKeyEnc", public_jwk AS "publicJwk", created_at AS "createdAt",
  active, retired_at AS "retiredAt"`;

// The lock's name is its identity, not a table reference: instances of an older and a newer version
// running side by side during a deploy must take the same one, so it stays written out.
const KEY_CHANGE_LOCK = `SELECT pg_advisory_xact_lock(hashtext('auth.signing_keys'))`;

// The SQL of the signing keys: the one active key (a partial unique index on `active` backs that up)
// and the retired ones still published. Every method takes the manager of the caller's transaction
// (or the DataSource's, outside one).
@Injectable()
export class SigningKeysRepository {
  // One lock for "who may create or rotate the active key", held to the end of the transaction: two
  // instances booting at once serialise here.
  async lockKeyChanges(db: EntityManager): Promise<void> {
    await db.query(KEY_CHANGE_LOCK);
  }

  async findActive(db: EntityManager): Promise<SigningKeyEntity | undefined> {
    const [row] = await queryRows<SigningKeyEntity>(db, `SELECT ${COLUMNS} FROM ${SIGNING_KEYS} WHERE active`);
    return row;
  }

  async insert(db: EntityManager, key: SigningKeyEntity): Promise<void> {
    await db.query(
      `INSERT INTO ${SIGNING_KEYS} (kid, private_key_enc, public_jwk, created_at, active, retired_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [key.kid, key.privateKeyEnc, JSON.stringify(key.publicJwk), key.createdAt, key.active, key.retiredAt],
    );
  }

  async retireActive(db: EntityManager): Promise<void> {
    await db.query(`UPDATE ${SIGNING_KEYS} SET active = false, retired_at = now() WHERE active`);
  }

  // The active key plus those retired less than `retentionSeconds` ago, newest first.
  async published(db: EntityManager, retentionSeconds: number): Promise<SigningKeyEntity[]> {
    return queryRows<SigningKeyEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${SIGNING_KEYS}
       WHERE active OR retired_at > now() - make_interval(secs => $1)
       ORDER BY created_at DESC`,
      [retentionSeconds],
    );
  }

  async listAll(db: EntityManager): Promise<SigningKeyEntity[]> {
    return queryRows<SigningKeyEntity>(db, `SELECT ${COLUMNS} FROM ${SIGNING_KEYS} ORDER BY created_at DESC`);
  }
}
