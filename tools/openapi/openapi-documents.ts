import 'reflect-metadata';

import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, getSchemaPath, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

import { SharedProblemTypes } from '@onramp/http';
import { ProblemResponse, PROBLEM_JSON } from '@onramp/openapi';

import { ADMIN_SECURITY_SCHEMES, HOSTS, OPERATOR_SCHEME, SECURITY_SCHEMES, TAGS } from './document-info';
import {
  canonicalOrder,
  isObject,
  Json,
  JsonObject,
  reachableSchemas,
  toJsonSchemaNullability,
} from './document-transforms';
import { DocumentHost, PUBLIC_APP_MODULES, PublicHost, servedOn } from './public-apps';
import { OrderWebhooksController } from './webhooks/order-webhooks.controller';

export const OPENAPI_VERSION = '3.1.0';
export const PUBLIC_HOSTS: PublicHost[] = ['base', 'kyc'];
export const DOCUMENT_HOSTS: DocumentHost[] = [...PUBLIC_HOSTS, 'admin'];

@Module({ imports: PUBLIC_APP_MODULES, controllers: [OrderWebhooksController] })
class ApiDocsModule {}

// Preview mode builds the module graph without instantiating anything: no database, no Kafka,
// no config beyond what the modules read while being imported.
async function scanControllers(): Promise<JsonObject> {
  const app = await NestFactory.create(ApiDocsModule, new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const config = new DocumentBuilder().setOpenAPIVersion(OPENAPI_VERSION).build();
    const document = SwaggerModule.createDocument(app, config, { autoTagControllers: false });
    return JSON.parse(JSON.stringify(document)) as JsonObject;
  } finally {
    await app.close();
  }
}

const problem = (description: string, headers?: JsonObject, example?: JsonObject): JsonObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    [PROBLEM_JSON]: { schema: { $ref: getSchemaPath(ProblemResponse) }, ...(example ? { example } : {}) },
  },
});

// Each gateway answer shows its own problem, not the schema's (validation) example.
const gatewayProblem = (status: number, title: string, detail: string, type = 'about:blank'): JsonObject => ({
  type,
  title,
  status,
  detail,
  instance: '/orders/create',
});

// Answered by the gateway itself on any proxied route.
const GATEWAY_RESPONSES: Record<string, JsonObject> = {
  '429': problem(
    'Too many requests from this credential (or, for /auth/token, this address).',
    { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', example: 1 } } },
    gatewayProblem(
      429,
      'Too Many Requests',
      'too many requests; retry after 1 s',
      SharedProblemTypes.RateLimited,
    ),
  ),
  '502': problem(
    'The service behind the gateway sent an invalid response.',
    undefined,
    gatewayProblem(502, 'Bad Gateway', 'the upstream service sent an invalid response'),
  ),
  '503': problem(
    'The service behind the gateway is unreachable. Retry after the given delay.',
    { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', example: 1 } } },
    gatewayProblem(503, 'Service Unavailable', 'the upstream service is unavailable; retry later'),
  ),
  '504': problem(
    'The service behind the gateway did not answer in time.',
    undefined,
    gatewayProblem(504, 'Gateway Timeout', 'the upstream service did not answer in time'),
  ),
};
const GATEWAY_RESPONSE_NAMES: Record<string, string> = {
  '429': 'TooManyRequests',
  '502': 'BadGateway',
  '503': 'ServiceUnavailable',
  '504': 'GatewayTimeout',
};

// GET /admin/audit is answered by the gateway itself (it merges every service's audit log), so no
// controller describes it.
const ADMIN_AUDIT_PATH: JsonObject = {
  '/admin/audit': {
    get: {
      operationId: 'listAdminAudit',
      summary: "Operators' changes, newest first, across the services (read scope)",
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'Records to return, 1 to 50 (default 50).',
          schema: { type: 'integer', minimum: 1, maximum: 50, default: 50 },
        },
        {
          name: 'before',
          in: 'query',
          required: false,
          description: "Only records before this time: the last record's `at` pages back.",
          schema: { type: 'string', format: 'date-time' },
        },
      ],
      responses: {
        '200': {
          description: 'The merged audit log. No secret, payer name or IBAN is ever recorded.',
          content: {
            'application/json': {
              schema: {
                type: 'array',
                items: {
                  type: 'object',
                  required: [
                    'id',
                    'service',
                    'operator',
                    'action',
                    'target',
                    'before',
                    'after',
                    'requestId',
                    'at',
                  ],
                  properties: {
                    id: { type: 'string', format: 'uuid' },
                    service: { type: 'string', example: 'auth' },
                    operator: { type: 'string', example: 'alice' },
                    action: { type: 'string', example: 'merchant.rotate-secret' },
                    target: { type: 'string' },
                    before: { type: ['object', 'null'] },
                    after: { type: ['object', 'null'] },
                    requestId: { type: ['string', 'null'] },
                    at: { type: 'string', format: 'date-time' },
                  },
                },
              },
            },
          },
        },
        '400': problem('`limit` or `before` is malformed.'),
        '401': problem('No valid operator key.'),
        '403': problem('The operator lacks the `read` scope.'),
        '502': problem('A service did not answer with its audit log.'),
        '504': problem('A service did not answer in time.'),
      },
    },
  },
};

function withGatewayResponses(operation: Json): Json {
  if (!isObject(operation) || !isObject(operation.responses)) return operation;
  const responses: JsonObject = { ...operation.responses };
  for (const status of Object.keys(GATEWAY_RESPONSES)) {
    responses[status] ??= { $ref: `#/components/responses/${GATEWAY_RESPONSE_NAMES[status]}` };
  }
  const { parameters, ...rest } = operation;
  return {
    ...rest,
    ...(Array.isArray(parameters) && parameters.length > 0 ? { parameters } : {}),
    responses,
  };
}

function pathsServedOn(host: DocumentHost, paths: JsonObject): JsonObject {
  const served: JsonObject = host === 'admin' ? { ...ADMIN_AUDIT_PATH } : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    // each service's own log; operators read the merged one (GET /admin/audit, the gateway's)
    if (path === '/admin/audit-log') continue;
    const operations = Object.entries(item).filter(([method]) => servedOn(host, method, path));
    if (operations.length > 0) {
      served[path] = Object.fromEntries(operations.map(([method, op]) => [method, withGatewayResponses(op)]));
    }
  }
  return served;
}

function usedTags(paths: JsonObject, webhooks: JsonObject | undefined): Json[] {
  const names = new Set<string>();
  for (const item of [...Object.values(paths), ...Object.values(webhooks ?? {})]) {
    if (!isObject(item)) continue;
    for (const op of Object.values(item)) {
      if (isObject(op) && Array.isArray(op.tags))
        op.tags.forEach((tag) => typeof tag === 'string' && names.add(tag));
    }
  }
  const unknown = [...names].filter((name) => !TAGS.some((tag) => tag.name === name));
  if (unknown.length > 0)
    throw new Error(`tags without a description in document-info.ts: ${unknown.join(', ')}`);
  return TAGS.filter((tag) => names.has(tag.name)).map((tag) => ({ ...tag }));
}

function documentFor(host: DocumentHost, scanned: JsonObject, version: string): JsonObject {
  const paths = pathsServedOn(host, isObject(scanned.paths) ? scanned.paths : {});
  // The webhooks go to the merchant whose URL is managed on the base host.
  const webhooks = host === 'base' && isObject(scanned.webhooks) ? scanned.webhooks : undefined;
  const responses = Object.fromEntries(
    Object.entries(GATEWAY_RESPONSES).map(([status, response]) => [GATEWAY_RESPONSE_NAMES[status], response]),
  );
  const allSchemas =
    isObject(scanned.components) && isObject(scanned.components.schemas) ? scanned.components.schemas : {};
  const document: JsonObject = {
    openapi: OPENAPI_VERSION,
    info: { title: HOSTS[host].title, version, description: HOSTS[host].description.trim() },
    servers: [HOSTS[host].server as unknown as JsonObject],
    ...(host === 'admin' ? { security: [{ [OPERATOR_SCHEME]: [] }] } : {}),
    tags: usedTags(paths, webhooks),
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      schemas: reachableSchemas(allSchemas, [paths, webhooks ?? {}, responses]),
      responses,
      securitySchemes: (host === 'admin'
        ? ADMIN_SECURITY_SCHEMES
        : SECURITY_SCHEMES) as unknown as JsonObject,
    },
  };
  return canonicalOrder(toJsonSchemaNullability(document) as JsonObject);
}

// The public documents and the admin one, built from the controllers in memory.
export async function buildOpenApiDocuments(version: string): Promise<Record<DocumentHost, OpenAPIObject>> {
  const scanned = await scanControllers();
  const build = (host: DocumentHost) => documentFor(host, scanned, version) as unknown as OpenAPIObject;
  return { base: build('base'), kyc: build('kyc'), admin: build('admin') };
}

// What `npm run docs:openapi` writes: 2-space JSON and a final newline.
export const renderDocument = (document: OpenAPIObject): string => `${JSON.stringify(document, null, 2)}\n`;
