// Plain-JSON passes over a generated document: OpenAPI 3.1 nullability, unused schemas dropped,
// and one key order, so the same code always gives the same bytes.

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// @nestjs/swagger writes OpenAPI 3.0 `nullable: true`; 3.1 (JSON Schema 2020-12) says `null` in the type.
export function toJsonSchemaNullability(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchemaNullability);
  if (!isObject(node)) return node;
  const { nullable, ...rest } = node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(rest)) out[key] = toJsonSchemaNullability(value);
  if (nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { oneOf: [out, { type: 'null' }] };
}

const SCHEMA_REF = '#/components/schemas/';

function collectSchemaRefs(node: Json, into: Set<string>): void {
  if (Array.isArray(node)) node.forEach((item) => collectSchemaRefs(item, into));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF))
        into.add(value.slice(SCHEMA_REF.length));
      else collectSchemaRefs(value, into);
    }
  }
}

// The schemas reachable from `roots` (operations, webhooks, shared responses), following refs.
export function reachableSchemas(schemas: JsonObject, roots: Json[]): JsonObject {
  const seen = new Set<string>();
  const pending = new Set<string>();
  roots.forEach((root) => collectSchemaRefs(root, pending));
  while (pending.size > 0) {
    const [name] = pending;
    pending.delete(name);
    if (seen.has(name)) continue;
    if (schemas[name] === undefined) throw new Error(`unknown schema referenced: ${name}`);
    seen.add(name);
    collectSchemaRefs(schemas[name], pending);
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => seen.has(name)));
}

const byKey = (object: JsonObject, order?: string[]): JsonObject => {
  const rank = (key: string) => (order?.includes(key) ? order.indexOf(key) : Number.MAX_SAFE_INTEGER);
  const keys = Object.keys(object).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
};

const mapValues = (object: Json | undefined, fn: (value: Json) => Json): Json | undefined =>
  isObject(object)
    ? Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]))
    : object;

const SCHEMA_KEYS = ['type', 'description', 'properties', 'required'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const OPERATION_KEYS = [
  'tags',
  'summary',
  'description',
  'operationId',
  'security',
  'parameters',
  'requestBody',
  'responses',
];

function orderOperation(operation: Json): Json {
  if (!isObject(operation)) return operation;
  const { responses } = operation;
  return byKey(
    { ...operation, ...(isObject(responses) ? { responses: byKey(responses) } : {}) },
    OPERATION_KEYS,
  );
}

function orderPathItems(paths: Json | undefined): Json | undefined {
  if (!isObject(paths)) return paths;
  return mapValues(byKey(paths), (item) =>
    isObject(item) ? (mapValues(byKey(item, METHODS), orderOperation) ?? item) : item,
  );
}

// Maps keyed by name (paths, schemas, status codes) are sorted; everything else keeps the order
// the code declares (a schema's properties stay in reading order).
export function canonicalOrder(doc: JsonObject): JsonObject {
  const components: JsonObject = isObject(doc.components) ? { ...doc.components } : {};
  if (isObject(components.schemas)) {
    components.schemas = mapValues(components.schemas, (schema) =>
      isObject(schema) ? byKey(schema, SCHEMA_KEYS) : schema,
    ) as JsonObject;
  }
  const ordered: JsonObject = {
    ...doc,
    paths: orderPathItems(doc.paths) ?? {},
    ...(doc.webhooks !== undefined ? { webhooks: orderPathItems(doc.webhooks) ?? {} } : {}),
    components: byKey(
      mapValues(components, (section) => (isObject(section) ? byKey(section) : section)) as JsonObject,
      ['schemas', 'responses', 'securitySchemes'],
    ),
  };
  return byKey(ordered, ['openapi', 'info', 'servers', 'tags', 'paths', 'webhooks', 'components']);
}
