import { EntityManager } from 'typeorm';

import { takeXactLocks, XactLock } from '@onramp/persistence';

// Serialises "which status does a new delivery get" against endpoint changes of the same merchant:
// event handlers take it shared, endpoint registration and disabling take it exclusive. Without it a
// delivery inserted while the endpoint is being registered could stay NO_ENDPOINT forever.
// Always taken before any row lock of the merchant, so lock order is the same everywhere.
export async function lockMerchant(
  manager: EntityManager,
  merchantId: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  await takeXactLocks(manager, [merchantLock(merchantId, mode)]);
}

export function merchantLock(merchantId: string, mode: 'shared' | 'exclusive'): XactLock {
  return { form: 'text', name: `webhooks:merchant:${merchantId}`, shared: mode === 'shared' };
}
