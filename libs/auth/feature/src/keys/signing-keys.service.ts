import { createPrivateKey, KeyObject } from 'node:crypto';

import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { FieldCipher } from '@onramp/crypto';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { AUTH_CONFIG, AUTH_SCHEMA, AuthConfig } from '../config';
import { generateSigningKey, PublicJwk } from './key-material';
import { SigningKeyEntity } from './signing-key.entity';
import { SigningKeysRepository } from './signing-keys.repository';

export interface ActiveSigner {
  kid: string;
  privateKey: KeyObject;
}

export interface SigningKeySummary {
  kid: string;
  active: boolean;
  createdAt: string;
  retiredAt: string | null;
}

@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly log = new Logger(SigningKeysService.name);
  private readonly cipher: FieldCipher;
  private readonly decrypted = new Map<string, KeyObject>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: SigningKeysRepository,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {
    this.cipher = new FieldCipher([config.keyEncryptionKey, ...config.previousKeyEncryptionKeys]);
  }

  async onModuleInit(): Promise<void> {
    await this.ensureActiveKey();
    // Fail at boot, not at the first token request, when the key was sealed with another key.
    await this.activeSigner();
  }

  async ensureActiveKey(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.keys.lockKeyChanges(manager);
      if (!(await this.keys.findActive(manager))) await this.insertNewKey(manager);
    });
  }

  // Read on every issue (one indexed row), so a rotation done by another instance takes effect at once.
  async activeSigner(): Promise<ActiveSigner> {
    let row = await this.keys.findActive(this.dataSource.manager);
    if (!row) {
      await this.ensureActiveKey();
      row = await this.keys.findActive(this.dataSource.manager);
      if (!row) throw new Error('no active signing key after creating one');
    }
    return { kid: row.kid, privateKey: this.privateKeyOf(row) };
  }

  async rotate(actor: AdminActor): Promise<SigningKeySummary> {
    const created = await this.dataSource.transaction(async (manager) => {
      await this.keys.lockKeyChanges(manager);
      await this.keys.retireActive(manager);
      const key = await this.insertNewKey(manager);
      await recordAdminAction(manager, AUTH_SCHEMA, actor, {
        action: 'signing-key.rotate',
        target: key.kid,
        after: { kid: key.kid },
      });
      return key;
    });
    return summary(created);
  }

  // Active key plus keys retired recently enough that tokens they signed may still be unexpired.
  async publishedKeys(): Promise<PublicJwk[]> {
    const rows = await this.keys.published(this.dataSource.manager, this.config.retiredKeyRetentionSeconds);
    return rows.map((r) => r.publicJwk);
  }

  async list(): Promise<SigningKeySummary[]> {
    const rows = await this.keys.listAll(this.dataSource.manager);
    return rows.map(summary);
  }

  private async insertNewKey(manager: EntityManager): Promise<SigningKeyEntity> {
    const key = generateSigningKey();
    const row: SigningKeyEntity = {
      kid: key.kid,
      privateKeyEnc: this.cipher.encrypt(key.privateKeyPem, key.kid),
      publicJwk: key.publicJwk,
      createdAt: new Date(),
      active: true,
      retiredAt: null,
    };
    await this.keys.insert(manager, row);
    this.log.log(`created signing key ${key.kid}`);
    return row;
  }

  private privateKeyOf(row: SigningKeyEntity): KeyObject {
    const cached = this.decrypted.get(row.kid);
    if (cached) return cached;
    let pem: string;
    try {
      pem = this.cipher.decrypt(row.privateKeyEnc, row.kid);
    } catch {
      throw new Error(
        `signing key ${row.kid} cannot be decrypted: neither AUTH_KEY_ENCRYPTION_KEY nor AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS holds the key that sealed it`,
      );
    }
    const key = createPrivateKey(pem);
    this.decrypted.set(row.kid, key);
    return key;
  }
}

function summary(row: SigningKeyEntity): SigningKeySummary {
  return {
    kid: row.kid,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    retiredAt: row.retiredAt ? row.retiredAt.toISOString() : null,
  };
}
