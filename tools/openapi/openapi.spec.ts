import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

import { OpenAPIObject } from '@nestjs/swagger';

import { ORDER_WEBHOOK_FIELDS } from '@onramp/testing';

import { documentPath, platformVersion, REPO_ROOT } from './generate';
import { buildOpenApiDocuments, DOCUMENT_HOSTS, PUBLIC_HOSTS, renderDocument } from './openapi-documents';
import { DocumentHost, PublicHost } from './public-apps';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
};

// docs/api.md, Endpoints: every path with its method, on the host that serves it.
const SPEC_OPERATIONS: Record<PublicHost, string[]> = {
  base: ['post /auth/token', 'post /orders/create', 'get /orders/{uuid}/payment-details', 'get /orders'],
  kyc: ['post /auth/token', 'post /kyc/add', 'get /kyc/get-all', 'get /kyc/{uuid}'],
};

const schemaOf = (doc: OpenAPIObject, name: string): Schema =>
  (doc.components?.schemas?.[name] ?? {}) as Schema;

const operationsOf = (doc: OpenAPIObject): string[] =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const line = left.findIndex((text, i) => text !== right[i]);
  const at = line === -1 ? left.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(left[at])}, generated ${JSON.stringify(right[at])}`;
}

describe('OpenAPI documents (docs/openapi)', () => {
  let docs: Record<DocumentHost, OpenAPIObject>;

  beforeAll(async () => {
    docs = await buildOpenApiDocuments(platformVersion());
  });

  it.each(DOCUMENT_HOSTS)('the committed %s document is the one the code generates', (host) => {
    const file = documentPath(host);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const generated = renderDocument(docs[host]);
    const verdict =
      committed === generated
        ? 'in sync'
        : `${relative(REPO_ROOT, file)} is out of date (${firstDifference(committed, generated)}): run npm run docs:openapi`;
    expect(verdict).toBe('in sync');
  });

  it.each(PUBLIC_HOSTS)(
    'the %s document is OpenAPI 3.1 with its server variable and both security schemes',
    (host) => {
      const doc = docs[host];
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.servers?.[0].url).toBe(host === 'base' ? '{base_url}' : '{kyc_url}');
      expect(Object.keys(doc.components?.securitySchemes ?? {}).sort()).toEqual(['basic', 'bearer']);
      expect(JSON.stringify(doc)).not.toContain('"nullable"'); // 3.0 only; 3.1 puts null in the type
    },
  );

  it.each(PUBLIC_HOSTS)(
    'the %s document has every docs/api.md path of its host, and nothing of the other',
    (host) => {
      const operations = operationsOf(docs[host]);
      expect(operations).toEqual(expect.arrayContaining(SPEC_OPERATIONS[host]));
      const other = host === 'base' ? '/kyc' : '/orders';
      expect(operations.filter((op) => op.includes(` ${other}`))).toEqual([]);
      expect(operations.filter((op) => /\/(admin|internal|health|\.well-known)\b/.test(op))).toEqual([]);
    },
  );

  it("documents the operators' admin API on its own, behind an operator key, with the merged audit log", () => {
    const admin = docs.admin;
    const operations = operationsOf(admin);
    expect(operations).toEqual(
      expect.arrayContaining([
        'get /admin/audit',
        'post /admin/merchants',
        'post /admin/webhook-deliveries/{id}/redeliver',
        'post /admin/bank-transactions/{id}/return',
        'get /admin/settlements',
        'post /admin/settlements/{orderUuid}/release',
      ]),
    );
    expect(operations.every((op) => op.split(' ')[1]?.startsWith('/admin/'))).toBe(true);
    expect(operations).not.toContain('get /admin/audit-log'); // each service's own: not for operators
    expect(admin.security).toEqual([{ operatorKey: [] }]);
    expect(Object.keys(admin.components?.securitySchemes ?? {})).toEqual(['operatorKey']);
    expect(admin.servers?.[0].url).toBe('{admin_url}');
    for (const host of PUBLIC_HOSTS)
      expect(operationsOf(docs[host]).some((op) => op.includes('/admin'))).toBe(false);
  });

  it('documents the merchant webhook endpoints and the sandbox bank on the base host', () => {
    expect(operationsOf(docs.base)).toEqual(
      expect.arrayContaining([
        'put /merchant/webhook',
        'get /merchant/webhook',
        'post /merchant/webhook/rotate-secret',
        'get /merchant/webhook/deliveries',
        'post /merchant/webhook/deliveries/{id}/redeliver',
        'post /sandbox/sepa-credits',
      ]),
    );
  });

  it('spells recepientAddress as docs/api.md does, in the create-order request and the order', () => {
    const request = schemaOf(docs.base, 'CreateOrderRequest');
    expect(request.required).toEqual(
      expect.arrayContaining(['amount', 'currency', 'recepientAddress', 'kycUserUuid']),
    );
    expect(Object.keys(schemaOf(docs.base, 'Order').properties ?? {})).toEqual(
      expect.arrayContaining([
        'uuid',
        'iban',
        'bic',
        'reference',
        'orderStatus',
        'status',
        'recepientAddress',
        'payedAmount',
      ]),
    );
  });

  it.each(Object.entries(ORDER_WEBHOOK_FIELDS))(
    'has the %s webhook with exactly the fields of docs/api.md',
    (event, fields) => {
      const webhook = docs.base.webhooks?.[event]?.post;
      expect(webhook).toBeDefined();
      const body = JSON.stringify(webhook?.requestBody);
      const name = event === 'order.completed' ? 'OrderCompletedEvent' : 'OrderFailedEvent';
      expect(body).toContain(`#/components/schemas/${name}`);
      const schema = schemaOf(docs.base, name);
      expect(Object.keys(schema.properties ?? {})).toEqual(fields);
      expect(schema.required).toEqual(fields);
      expect(schema.properties?.payedAmount.type).toBe('number');
      const headers = (webhook?.parameters ?? []).map((p) => ('name' in p ? p.name : ''));
      expect(headers).toEqual([
        'X-Webhook-Signature',
        'X-Webhook-Id',
        'X-Webhook-Timestamp',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    },
  );

  it('documents the nulls of a failed order and no webhooks on the KYC host', () => {
    expect(schemaOf(docs.base, 'OrderFailedEvent').properties?.sentTokenCurrency.type).toEqual([
      'string',
      'null',
    ]);
    expect(docs.kyc.webhooks).toBeUndefined();
  });
});
