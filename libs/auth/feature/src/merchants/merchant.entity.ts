import { Column, Entity, PrimaryColumn } from 'typeorm';

import { AUTH_SCHEMA } from '../config';

@Entity({ schema: AUTH_SCHEMA, name: 'merchants' })
export class MerchantEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  // argon2id PHC string; the secret itself is never stored
  @Column('text', { name: 'secret_hash' })
  secretHash!: string;

  // Bumped by every secret rotation; tokens of an older version are refused by every service.
  @Column('integer', { name: 'token_version', default: 0 })
  tokenVersion!: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
