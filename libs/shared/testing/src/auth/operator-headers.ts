import { gatewayAdminHeaders, Operator, OPERATOR_SCOPES } from '@onramp/auth';
import { DEVELOPMENT_KEYS } from '@onramp/crypto';

export const TEST_OPERATOR: Operator = { id: 'test-operator', scopes: [...OPERATOR_SCOPES] };

// What the gateway's admin listener adds to a request it forwards to a service, in sandbox (the
// development service secret): for tests that call a service's /admin/* directly.
export function operatorHeaders(
  method: string,
  url: string,
  operator: Operator = TEST_OPERATOR,
): Record<string, string> {
  return gatewayAdminHeaders(DEVELOPMENT_KEYS.serviceSecret, method, url, operator);
}
