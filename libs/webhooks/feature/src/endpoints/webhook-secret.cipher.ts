import { Inject, Injectable } from '@nestjs/common';

import { FieldCipher, webhookSecretContext } from '@onramp/crypto';

import { WEBHOOK_CONFIG, WebhookDispatchConfig } from '../config';

// Seals signing secrets at rest under the WEBHOOK_SECRET_* key ring (the first key seals, every key
// opens what it sealed); the merchant id is the associated data, so a sealed secret copied onto
// another merchant's row does not open.
@Injectable()
export class WebhookSecretCipher {
  private readonly cipher: FieldCipher;

  constructor(@Inject(WEBHOOK_CONFIG) config: WebhookDispatchConfig) {
    this.cipher = new FieldCipher(config.secretEncryptionKeys);
  }

  seal(merchantId: string, secret: string): string {
    return this.cipher.encrypt(secret, webhookSecretContext(merchantId));
  }

  open(merchantId: string, sealed: string): string {
    return this.cipher.decrypt(sealed, webhookSecretContext(merchantId));
  }
}
