import { OpenAPIObject } from '@nestjs/swagger';

import { BASIC_SCHEME, BEARER_SCHEME } from '@onramp/openapi';

import { PublicHost } from './public-apps';

type ServerObject = NonNullable<OpenAPIObject['servers']>[number];
// A plain type (not an interface) so it is also a JSON object.
type TagObject = { name: string; description: string };
type SecuritySchemes = NonNullable<NonNullable<OpenAPIObject['components']>['securitySchemes']>;

const CONVENTIONS = `
**Authentication.** Get a token with \`POST /auth/token\` (HTTP Basic \`<MERCHANT_ID>:<MERCHANT_SECRET>\`), then send \`Authorization: Bearer <access_token>\` on every other request. A token expires after 15 minutes; a request answered 401 (with \`WWW-Authenticate: Bearer\`) should fetch a new token and retry.

**Errors.** Every error is \`application/problem+json\` (RFC 9457): \`type\`, \`title\`, \`status\`, \`detail\`, \`instance\`, and \`errors: [{field, message}]\` listing the invalid fields. A uuid of another merchant is answered 404, exactly like an unknown one.

**Pagination.** Lists take \`limit\` (1 to 50, default 50) and \`offset\` (default 0) and return a JSON array, newest first, with \`X-Total-Count\` and an RFC 8288 \`Link\` header.

**Retries.** \`POST /orders/create\` and \`POST /kyc/add\` take an \`Idempotency-Key\` header: a retry with the same key and body returns the first response instead of creating a second resource.`;

export const HOSTS: Record<PublicHost, { title: string; description: string; server: ServerObject }> = {
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
