import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { KycStatus, Topics } from '@onramp/contracts';
import { notFound } from '@onramp/http';
import { OutboxRelay, OutboxWriter, uuidv7 } from '@onramp/messaging';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { KYC_SCHEMA } from '../config';

import { KycUserEntity } from '../kyc-users/kyc-user.entity';
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
    private readonly outbox: OutboxWriter,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(cmd: DecideKycUserCommand): Promise<KycDecisionResult> {
    const result = await this.dataSource.transaction(async (manager) => {
      const user = await manager
        .getRepository(KycUserEntity)
        .createQueryBuilder('u')
        .setLock('pessimistic_write')
        .where('u.uuid = :uuid', { uuid: cmd.userUuid })
        .getOne();
      if (!user) throw notFound('KYC user not found');
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
      await manager.update(
        KycUserEntity,
        { uuid: user.uuid },
        { status: cmd.status, statusReason: cmd.reason, statusVersion, updatedAt: now },
      );
      await manager.query(
        `INSERT INTO "kyc"."kyc_decisions" (id, user_uuid, previous_status, status, status_version, reason, decided_by, decided_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          uuidv7(now.getTime()),
          user.uuid,
          previousStatus,
          cmd.status,
          statusVersion,
          cmd.reason,
          cmd.decidedBy,
          now,
        ],
      );
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
    });
    if (result.changed) this.relay.nudge();
    return result;
  }
}
