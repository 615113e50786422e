import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { notFound } from '@onramp/http';
import { OutboxRelay, OutboxWriter } from '@onramp/messaging';
import { AdminActor, idempotencyContext, recordAdminAction } from '@onramp/persistence';

import { KYC_SCHEMA } from '../config';
import { KycPiiCipher } from '../kyc-users/kyc-pii';
import { KycUsersRepository } from '../kyc-users/kyc-users.repository';
import { DecideKycUserUseCase } from './decide-kyc-user.usecase';
import { KycErasureRepository } from './kyc-erasure.repository';

export interface KycErasureResult {
  uuid: string;
  erasedAt: string;
  erasedBy: string;
  status: 'REJECTED';
  idempotencyRecords: number; // replayed registrations that held the PII, now tombstones
  changed: boolean;
}

const ERASED_REASON = 'personal data erased';
const PAGE = 500;

// Erasure of a KYC user's personal data (docs/security.md, erasure), in one transaction with the
// user locked: the sealed PII becomes a sealed tombstone, the merchant's externalId is let go, every
// stored replay of its registration (the POST /kyc/add answer, which holds the PII) becomes a 410,
// the user is REJECTED if it was not (no business without identity data: orders refuses new orders
// through the usual kyc.user.status-changed event), and the operator's action is audited. What
// the AML record needs stays: the user's uuid and merchant, the status history with who decided
// and why, the timestamps, and every order and transaction elsewhere. The kyc.user.erased event,
// in the same transaction, tells the services that keep a copy of the holder's name (payment-ingest)
// to drop it, and the holder's name in this user's own kyc.user.registered outbox row is cut out.
// Erasing twice changes nothing.
@Injectable()
export class EraseKycUserUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: KycUsersRepository,
    private readonly erasure: KycErasureRepository,
    private readonly cipher: KycPiiCipher,
    private readonly decide: DecideKycUserUseCase,
    private readonly outbox: OutboxWriter,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(userUuid: string, actor: AdminActor): Promise<KycErasureResult> {
    const result = await this.dataSource.transaction(async (manager) => {
      const user = await this.users.findForUpdate(manager, userUuid);
      if (!user) throw notFound('KYC user not found');
      if (user.erasedAt) {
        return {
          uuid: user.uuid,
          erasedAt: user.erasedAt.toISOString(),
          erasedBy: user.erasedBy ?? '',
          status: 'REJECTED' as const,
          idempotencyRecords: 0,
          changed: false,
        };
      }
      await this.decide.decideIn(manager, {
        userUuid: user.uuid,
        status: 'REJECTED',
        reason: ERASED_REASON,
        decidedBy: actor.operator,
        actor,
      });
      const now = new Date();
      await this.users.erase(manager, user.uuid, this.cipher.sealErased(user.uuid), actor.operator, now);
      const idempotencyRecords = await this.tombstoneReplays(manager, user.merchantId, user.uuid);
      await this.announceErasure(manager, user.merchantId, user.uuid, now);
      await recordAdminAction(manager, KYC_SCHEMA, actor, {
        action: 'kyc-user.erase',
        target: user.uuid,
        before: { status: user.status },
        after: { erasedAt: now.toISOString(), idempotencyRecords },
      });
      return {
        uuid: user.uuid,
        erasedAt: now.toISOString(),
        erasedBy: actor.operator,
        status: 'REJECTED' as const,
        idempotencyRecords,
        changed: true,
      };
    });
    if (result.changed) this.relay.nudge(); // kyc.user.erased (and kyc.user.status-changed)
    return result;
  }

  // kyc.user.erased for the services holding a copy of the name (it carries nothing personal). The
  // registration event still in our outbox loses its sealed holder name: published already, it is
  // only a record now; not yet published, it goes out without one (payment-ingest then learns no
  // name, and the erasure event follows it anyway). Copies already on the Kafka topic stay until its
  // retention drops them: a log is append-only.
  private async announceErasure(
    manager: EntityManager,
    merchantId: string,
    userUuid: string,
    erasedAt: Date,
  ): Promise<void> {
    await this.erasure.dropHolderNameFromRegisteredEvent(manager, userUuid);
    await this.outbox.append(manager, {
      type: Topics.KycUserErased,
      key: userUuid,
      merchantId,
      data: { userUuid, erasedAt: erasedAt.toISOString() },
    });
  }

  // The merchant's stored answers to POST /kyc/add that registered this user: sealed, so each is
  // opened to find the user's uuid (a merchant-wide scan, in pages: erasure is rare, correctness
  // does not depend on clocks). Each becomes a sealed 410 tombstone: a late retry with the same key
  // gets a 410, not the PII and not a second registration.
  private async tombstoneReplays(
    manager: EntityManager,
    merchantId: string,
    userUuid: string,
  ): Promise<number> {
    let after = '';
    let replaced = 0;
    for (;;) {
      const rows = await this.erasure.registrationsPage(manager, merchantId, after, PAGE);
      for (const row of rows) {
        const context = idempotencyContext(merchantId, row.key);
        const body = this.cipher.responseBodies.open(row.response_body, context) as { uuid?: unknown } | null;
        if (body?.uuid !== userUuid) continue;
        const tombstone = this.cipher.responseBodies.seal({ erased: true }, context);
        await this.erasure.tombstoneRegistration(manager, merchantId, row.key, tombstone);
        replaced += 1;
      }
      if (rows.length < PAGE) return replaced;
      after = rows[rows.length - 1].key;
    }
  }
}
