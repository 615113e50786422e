import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { KycStatus, Topics } from '@onramp/contracts';
import { notFound } from '@onramp/http';
import { OutboxRelay, OutboxWriter, uuidv7 } from '@onramp/messaging';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { KYC_SCHEMA } from '../config';
import { kycUserErased } from '../kyc-problem-types';
import { KycUsersRepository } from '../kyc-users/kyc-users.repository';
import { KycDecision } from './kyc-decision.dto';

export interface DecideKycUserCommand {
  userUuid: string;
  status: KycDecision;
  reason: string;
  decidedBy: string; // the operator, or later the KYC provider
  actor?: AdminActor; // an operator's decision is also recorded in the admin audit log
}

export interface KycDecisionResult {
  uuid: string;
  status: KycStatus;
  previousStatus: KycStatus;
  statusReason: string;
  statusVersion: number;
  decidedBy: string;
  decidedAt: string;
  changed: boolean;
}

// The one seam through which a KYC status changes after registration: an operator through the
// admin API today, a KYC provider's webhook later. The status, its history row and the
// kyc.user.status-changed event commit together. Repeating the current decision changes nothing.
@Injectable()
export class DecideKycUserUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: KycUsersRepository,
    private readonly outbox: OutboxWriter,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(cmd: DecideKycUserCommand): Promise<KycDecisionResult> {
    const result = await this.dataSource.transaction((manager) => this.decideIn(manager, cmd));
    if (result.changed) this.relay.nudge();
    return result;
  }

  // Inside the caller's transaction (erasure rejects the user in the transaction that erases it);
  // the caller nudges the relay after commit when `changed`.
  async decideIn(manager: EntityManager, cmd: DecideKycUserCommand): Promise<KycDecisionResult> {
    const user = await this.users.findForUpdate(manager, cmd.userUuid);
    if (!user) throw notFound('KYC user not found');
    if (user.erasedAt) throw kycUserErased();
    const now = new Date();
    const previousStatus = user.status;
    if (previousStatus === cmd.status) {
      return {
        uuid: user.uuid,
        status: user.status,
        previousStatus,
        statusReason: user.statusReason ?? '',
        statusVersion: user.statusVersion,
        decidedBy: cmd.decidedBy,
        decidedAt: user.updatedAt.toISOString(),
        changed: false,
      };
    }
    const statusVersion = user.statusVersion + 1;
    await this.users.recordDecision(manager, {
      id: uuidv7(now.getTime()),
      userUuid: user.uuid,
      previousStatus,
      status: cmd.status,
      statusVersion,
      reason: cmd.reason,
      decidedBy: cmd.decidedBy,
      decidedAt: now,
    });
    if (cmd.actor)
      await recordAdminAction(manager, KYC_SCHEMA, cmd.actor, {
        action: 'kyc-user.decide',
        target: user.uuid,
        before: { status: previousStatus },
        after: { status: cmd.status, statusVersion },
      });
    await this.outbox.append(manager, {
      type: Topics.KycUserStatusChanged,
      key: user.uuid,
      merchantId: user.merchantId,
      data: {
        userUuid: user.uuid,
        status: cmd.status,
        previousStatus,
        statusVersion,
        reason: cmd.reason,
        decidedBy: cmd.decidedBy,
        decidedAt: now.toISOString(),
      },
    });
    return {
      uuid: user.uuid,
      status: cmd.status,
      previousStatus,
      statusReason: cmd.reason,
      statusVersion,
      decidedBy: cmd.decidedBy,
      decidedAt: now.toISOString(),
      changed: true,
    };
  }
}
