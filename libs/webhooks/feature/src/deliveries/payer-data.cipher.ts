import { Inject, Injectable } from '@nestjs/common';

import { FieldCipher, isSealed, openPayerName, webhookBodyContext } from '@onramp/crypto';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';

const bodyContext = webhookBodyContext;

// The payer-data ring (shared with payment-ingest, docs/security.md): opens the payer's name that
// order.completed carries sealed, and seals each delivery body at rest, bound to its delivery id, so
// the order.completed body (the payer's name) is never stored in clear. The body is opened only to be
// signed and sent: the signature is over the plaintext bytes the merchant receives.
@Injectable()
export class PayerDataCipher {
  private readonly cipher: FieldCipher;

  constructor(@Inject(WEBHOOK_CONFIG) config: WebhookDispatchConfig) {
    this.cipher = new FieldCipher(config.payerDataKeys);
  }

  get keyId(): string {
    return this.cipher.keyId;
  }

  payerName(orderUuid: string, value: string): string {
    return openPayerName(this.cipher, orderUuid, value);
  }

  sealBody(deliveryId: string, body: string): string {
    return this.cipher.encrypt(body, bodyContext(deliveryId));
  }

  // Bodies recorded before sealing are plain JSON until `npm run rekey` seals them.
  openBody(deliveryId: string, stored: string): string {
    return isSealed(stored) ? this.cipher.decrypt(stored, bodyContext(deliveryId)) : stored;
  }
}
