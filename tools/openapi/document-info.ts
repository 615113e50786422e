import { OpenAPIObject } from '@nestjs/swagger';

import { BASIC_SCHEME, BEARER_SCHEME } from '@onramp/openapi';

import { DocumentHost } from './public-apps';

type ServerObject = NonNullable<OpenAPIObject['servers']>[number];
// A plain type (not an interface) so it is also a JSON object.
type TagObject = { name: string; description: string };
type SecuritySchemes = NonNullable<NonNullable<OpenAPIObject['components']>['securitySchemes']>;

const CONVENTIONS = `
**Authentication.** Get a token with \`POST /auth/token\` (HTTP Basic \`<MERCHANT_ID>:<MERCHANT_SECRET>\`), then send \`Authorization: Bearer <access_token>\` on every other request. A token expires after 15 minutes; a request answered 401 (with \`WWW-Authenticate: Bearer\`) should fetch a new token and retry.

**Errors.** Every error is \`application/problem+json\` (RFC 9457): \`type\`, \`title\`, \`status\`, \`detail\`, \`instance\`, and \`errors: [{field, message}]\` listing the invalid fields. A uuid of another merchant is answered 404, exactly like an unknown one.

**Pagination.** Lists take \`limit\` (1 to 50, default 50) and \`offset\` (default 0) and return a JSON array, newest first, with \`X-Total-Count\` and an RFC 8288 \`Link\` header.

**Retries.** \`POST /orders/create\` and \`POST /kyc/add\` take an \`Idempotency-Key\` header: a retry with the same key and body returns the first response instead of creating a second resource.`;

export const HOSTS: Record<DocumentHost, { title: string; description: string; server: ServerObject }> = {
  base: {
    title: 'onramp API: orders host',
    description: `EUR by SEPA bank transfer in, USDC on Arbitrum out. This host (\`{base_url}\`) serves \`/orders/*\`, \`/merchant/webhook*\`, \`/sandbox/*\` (sandbox mode only) and \`POST /auth/token\`; the KYC endpoints are on the KYC host (\`{kyc_url}\`, its own document). The events sent to the merchant's webhook URL are under \`webhooks\`.
${CONVENTIONS}`,
    server: {
      url: '{base_url}',
      description: 'Orders host',
      variables: {
        base_url: { default: 'http://127.0.0.1:3000', description: 'Base address of the orders host.' },
      },
    },
  },
  kyc: {
    title: 'onramp API: KYC host',
    description: `Registration of the end users (KYC) that orders are created for. This host (\`{kyc_url}\`) serves \`/kyc/*\` and \`POST /auth/token\`; orders are on the orders host (\`{base_url}\`, its own document).
${CONVENTIONS}`,
    server: {
      url: '{kyc_url}',
      description: 'KYC host',
      variables: {
        kyc_url: { default: 'http://127.0.0.1:3001', description: 'Base address of the KYC host.' },
      },
    },
  },
  admin: {
    title: 'onramp API: admin listener (operators)',
    description: `For operators, not merchants. The gateway's admin listener (\`{admin_url}\`, loopback only: reach it on the machine or through a port-forward) serves \`/admin/*\` of every service.

**Authentication.** \`Authorization: Bearer <operator key>\` (or \`X-Admin-Key\`): a named operator key from \`OPERATOR_KEYS\`, or the bootstrap \`ADMIN_API_KEY\`. The gateway checks the key and its scope (\`read\` for every GET; \`merchants\`, \`deliveries\`, \`kyc\` or \`money\` for changes) and answers 401 or 403 itself; the services accept only the gateway.

**Audit.** Every change is recorded with its operator in an append-only log: \`GET /admin/audit\`.

**Errors** are \`application/problem+json\` (RFC 9457), as on the public hosts.`,
    server: {
      url: '{admin_url}',
      description: 'Admin listener',
      variables: {
        admin_url: { default: 'http://127.0.0.1:3002', description: 'Base address of the admin listener.' },
      },
    },
  },
};

// In the order a reader meets them; a document lists only the tags it uses.
export const TAGS: TagObject[] = [
  { name: 'Authentication', description: 'Access tokens for the merchant.' },
  { name: 'KYC', description: 'End users, registered before they can place orders.' },
  { name: 'Orders', description: 'On-ramp orders: EUR in by SEPA transfer, USDC out on chain.' },
  {
    name: 'Webhooks',
    description: 'Where the merchant receives `order.completed` and `order.failed`, and the delivery log.',
  },
  { name: 'Sandbox bank', description: 'Sandbox mode only: simulate the end user paying.' },
];

export const OPERATOR_SCHEME = 'operatorKey';

// The admin document's only scheme, required by every operation there.
export const ADMIN_SECURITY_SCHEMES: SecuritySchemes = {
  [OPERATOR_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    description: 'An operator key (OPERATOR_KEYS) or the bootstrap ADMIN_API_KEY.',
  },
};

export const SECURITY_SCHEMES: SecuritySchemes = {
  [BEARER_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from `POST /auth/token`, valid for 15 minutes.',
  },
  [BASIC_SCHEME]: {
    type: 'http',
    scheme: 'basic',
    description: 'Merchant credentials `<MERCHANT_ID>:<MERCHANT_SECRET>`; only for `POST /auth/token`.',
  },
};
