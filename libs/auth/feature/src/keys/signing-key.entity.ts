import { Column, Entity, PrimaryColumn } from 'typeorm';

import { AUTH_SCHEMA } from '../config';

import { PublicJwk } from './key-material';

@Entity({ schema: AUTH_SCHEMA, name: 'signing_keys' })
export class SigningKeyEntity {
  @PrimaryColumn('text')
  kid!: string;

  // PKCS8 PEM sealed with FieldCipher (AES-256-GCM), the kid as associated data
  @Column('text', { name: 'private_key_enc' })
  privateKeyEnc!: string;

  @Column('jsonb', { name: 'public_jwk' })
  publicJwk!: PublicJwk;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('boolean')
  active!: boolean;

  @Column('timestamptz', { name: 'retired_at', nullable: true })
  retiredAt!: Date | null;
}
