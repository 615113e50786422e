import { DataSource, EntityManager } from 'typeorm';

import { hashRequestBody, IdempotencyStore, ResponseBodyCodec, StoredResponse } from '@onramp/persistence';

import { badRequest, conflict } from './problem.exception';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function violatedConstraint(err: unknown): string | undefined {
  const e = err as { constraint?: string; driverError?: { constraint?: string } };
  return e?.driverError?.constraint ?? e?.constraint;
}

// Idempotency-Key on POST (docs/api.md, Conventions): the key is saved in the transaction of the write,
// so a retried request either replays the first response or, with another body, gets 409.
export class IdempotentRequests {
  private readonly store: IdempotencyStore;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
    codec?: ResponseBodyCodec,
  ) {
    this.store = new IdempotencyStore(schema, codec);
  }

  async execute(
    merchantId: string,
    key: string | undefined,
    requestBody: unknown,
    work: (manager: EntityManager) => Promise<StoredResponse>,
    // Checks that talk to other services run here, after a replay is ruled out and outside the
    // transaction, so no database transaction waits on the network.
    before: () => Promise<void> = async () => undefined,
  ): Promise<StoredResponse> {
    if (key === undefined) {
      await before();
      return this.dataSource.transaction(work);
    }
    if (!KEY_PATTERN.test(key)) {
      const message = 'Idempotency-Key must be 1 to 255 visible ASCII characters';
      throw badRequest(message, [{ field: 'Idempotency-Key', message }]);
    }
    const hash = hashRequestBody(requestBody);
    const earlier = await this.answerFromStore(merchantId, key, hash);
    if (earlier) return earlier;
    await before();
    try {
      return await this.dataSource.transaction(async (manager) => {
        const response = await work(manager);
        await this.store.save(manager, merchantId, key, hash, response);
        return response;
      });
    } catch (err) {
      // A concurrent request with the same key committed first: answer as it did.
      if (violatedConstraint(err) === 'idempotency_keys_pkey') {
        const winner = await this.answerFromStore(merchantId, key, hash);
        if (winner) return winner;
      }
      throw err;
    }
  }

  private async answerFromStore(
    merchantId: string,
    key: string,
    hash: string,
  ): Promise<StoredResponse | undefined> {
    const found = await this.store.lookup(this.dataSource.manager, merchantId, key, hash);
    if (found.kind === 'conflict')
      throw conflict('this Idempotency-Key was already used with a different request body');
    return found.kind === 'replay' ? found.response : undefined;
  }
}
