import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { FieldCipher, kycHolderNameContext } from '@onramp/crypto';
import { conflict, IdempotentRequests } from '@onramp/http';
import { screenApplicant } from '@onramp/kyc-domain';
import { OutboxRelay, OutboxWriter, uuidv7 } from '@onramp/messaging';
import { StoredResponse } from '@onramp/persistence';

import { KYC_CONFIG, KycConfig } from '../config';
import { AddKycUserDto } from './dto/add-kyc-user.dto';
import { KycUserEntity } from './kyc-user.entity';
import { KycPii, KycPiiCipher } from './kyc-pii';
import { presentKycUser } from './kyc-user.presenter';
import { KycUsersRepository } from './kyc-users.repository';

export interface AddKycUserCommand {
  merchantId: string;
  input: AddKycUserDto;
  rawBody: unknown; // what the idempotency key is bound to
  idempotencyKey?: string;
}

function piiOf(input: AddKycUserDto): KycPii {
  const { address, document } = input;
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    dateOfBirth: input.dateOfBirth,
    nationality: input.nationality,
    email: input.email,
    ...(input.phone !== undefined ? { phone: input.phone } : {}),
    address: {
      line1: address.line1,
      ...(address.line2 ? { line2: address.line2 } : {}),
      city: address.city,
      postalCode: address.postalCode,
      country: address.country,
    },
    ...(document
      ? {
          document: {
            type: document.type,
            number: document.number,
            issuingCountry: document.issuingCountry,
            expiryDate: document.expiryDate,
          },
        }
      : {}),
  };
}

// Registers an end user: screen, seal the PII, store, and announce kyc.user.registered in the same
// transaction, so orders learns about every user that exists and only about those.
@Injectable()
export class AddKycUserUseCase {
  constructor(
    @Inject(KYC_CONFIG) private readonly config: KycConfig,
    private readonly cipher: KycPiiCipher,
    private readonly users: KycUsersRepository,
    private readonly outbox: OutboxWriter,
    private readonly relay: OutboxRelay,
    private readonly idempotency: IdempotentRequests,
  ) {}

  // The holder's name for payment-ingest's payer-name policy, sealed under the payer-data ring and
  // bound to the user: the event log never holds it in clear, and only payment-ingest opens it.
  private readonly payerData = new FieldCipher(this.config.payerDataKeys);

  async execute(cmd: AddKycUserCommand): Promise<StoredResponse> {
    const response = await this.idempotency.execute(
      cmd.merchantId,
      cmd.idempotencyKey,
      cmd.rawBody,
      (manager) => this.register(manager, cmd),
    );
    this.relay.nudge();
    return response;
  }

  private async register(manager: EntityManager, cmd: AddKycUserCommand): Promise<StoredResponse> {
    const now = new Date();
    const pii = piiOf(cmd.input);
    const screening = screenApplicant(pii, now, this.config.mode);
    const uuid = uuidv7(now.getTime());
    const user: KycUserEntity = {
      uuid,
      merchantId: cmd.merchantId,
      externalId: cmd.input.externalId ?? null,
      status: screening.status,
      statusReason: screening.statusReason ?? null,
      statusVersion: 0,
      pii: this.cipher.seal(uuid, pii),
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.users.insertIfNew(manager, user)))
      throw conflict('a KYC user with this externalId is already registered');
    await this.outbox.append(manager, {
      type: Topics.KycUserRegistered,
      key: user.uuid,
      merchantId: cmd.merchantId,
      data: {
        userUuid: user.uuid,
        status: user.status,
        holderName: this.payerData.encrypt(
          `${pii.firstName} ${pii.lastName}`,
          kycHolderNameContext(user.uuid),
        ),
      },
    });
    return { status: 201, body: presentKycUser(user, pii) };
  }
}
