import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';

import { KYC_IDEMPOTENCY_KEYS, KYC_OUTBOX } from '../persistence/kyc-tables';

export interface StoredRegistration {
  key: string;
  response_body: unknown; // sealed: the POST /kyc/add answer, PII included
}

// The SQL of an erasure beyond the user's own row: the stored answers to POST /kyc/add (registration
// replays) and the user's kyc.user.registered event still in the outbox.
@Injectable()
export class KycErasureRepository {
  // One page of the merchant's successful registration answers after `afterKey`, locked for the
  // erasure's transaction.
  async registrationsPage(
    db: EntityManager,
    merchantId: string,
    afterKey: string,
    limit: number,
  ): Promise<StoredRegistration[]> {
    return (await db.query(
      `SELECT key, response_body FROM ${KYC_IDEMPOTENCY_KEYS}
       WHERE merchant_id = $1 AND response_status = 201 AND key > $2 ORDER BY key LIMIT $3 FOR UPDATE`,
      [merchantId, afterKey, limit],
    )) as StoredRegistration[];
  }

  // A replay becomes a 410 whose body is the given sealed tombstone.
  async tombstoneRegistration(
    db: EntityManager,
    merchantId: string,
    key: string,
    sealedBody: unknown,
  ): Promise<void> {
    await db.query(
      `UPDATE ${KYC_IDEMPOTENCY_KEYS} SET response_status = 410, response_body = $3
       WHERE merchant_id = $1 AND key = $2`,
      [merchantId, key, JSON.stringify(sealedBody)],
    );
  }

  // The sealed holder name cut out of the user's kyc.user.registered outbox row(s).
  async dropHolderNameFromRegisteredEvent(db: EntityManager, userUuid: string): Promise<void> {
    await db.query(
      `UPDATE ${KYC_OUTBOX} SET envelope = envelope #- '{data,holderName}'
       WHERE topic = $1 AND key = $2 AND envelope->'data' ? 'holderName'`,
      [Topics.KycUserRegistered, userUuid],
    );
  }
}
