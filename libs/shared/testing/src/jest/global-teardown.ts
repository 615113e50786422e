import type { InfraHandle } from '@onramp/platform-infra';

import { INFRA_HANDLE } from './global-setup';

type WithInfra = typeof globalThis & { [INFRA_HANDLE]?: InfraHandle };

export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as WithInfra;
  const infra = holder[INFRA_HANDLE];
  delete holder[INFRA_HANDLE];
  await infra?.stop();
}
