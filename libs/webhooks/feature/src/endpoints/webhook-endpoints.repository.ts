import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { ENDPOINTS } from '../persistence/webhooks-tables';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

const COLUMNS = `merchant_id AS "merchantId", url, secret_enc AS "secretEnc", disabled_at AS "disabledAt",
  disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt"`;

// The SQL of the endpoints aggregate (one callback URL and sealed secret per merchant). Every method
// takes the manager of the caller's transaction (or the DataSource's, outside one): the use case
// decides what commits together.
@Injectable()
export class WebhookEndpointsRepository {
  async find(db: EntityManager, merchantId: string): Promise<WebhookEndpointEntity | undefined> {
    const [row] = await queryRows<WebhookEndpointEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${ENDPOINTS} WHERE merchant_id = $1`,
      [merchantId],
    );
    return row;
  }

  async findForUpdate(db: EntityManager, merchantId: string): Promise<WebhookEndpointEntity | undefined> {
    const [row] = await queryRows<WebhookEndpointEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${ENDPOINTS} WHERE merchant_id = $1 FOR UPDATE`,
      [merchantId],
    );
    return row;
  }

  async insert(db: EntityManager, merchantId: string, url: string, secretEnc: string): Promise<void> {
    await db.query(`INSERT INTO ${ENDPOINTS} (merchant_id, url, secret_enc) VALUES ($1, $2, $3)`, [
      merchantId,
      url,
      secretEnc,
    ]);
  }

  // A new URL re-enables a disabled endpoint; the secret is kept.
  async changeUrl(db: EntityManager, merchantId: string, url: string): Promise<void> {
    await db.query(
      `UPDATE ${ENDPOINTS} SET url = $2, disabled_at = NULL, disabled_reason = NULL, updated_at = now()
       WHERE merchant_id = $1`,
      [merchantId, url],
    );
  }

  // The endpoint's URL after the change, or undefined when the merchant has none.
  async replaceSecret(db: EntityManager, merchantId: string, secretEnc: string): Promise<string | undefined> {
    const [row] = await queryRows<{ url: string }>(
      db,
      `UPDATE ${ENDPOINTS} SET secret_enc = $2, updated_at = now() WHERE merchant_id = $1 RETURNING url`,
      [merchantId, secretEnc],
    );
    return row?.url;
  }

  // Only while `url` is still the registered one and enabled; true when this call disabled it.
  async disableIfStill(db: EntityManager, merchantId: string, url: string, reason: string): Promise<boolean> {
    const disabled = await queryRows<{ merchant_id: string }>(
      db,
      `UPDATE ${ENDPOINTS} SET disabled_at = now(), disabled_reason = $3, updated_at = now()
       WHERE merchant_id = $1 AND url = $2 AND disabled_at IS NULL RETURNING merchant_id`,
      [merchantId, url, reason],
    );
    return disabled.length > 0;
  }
}
