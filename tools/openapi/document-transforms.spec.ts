import { canonicalOrder, reachableSchemas, toJsonSchemaNullability } from './document-transforms';

describe('document transforms', () => {
  it('turns OpenAPI 3.0 nullable into JSON Schema null types, enums included', () => {
    expect(toJsonSchemaNullability({ type: 'integer', nullable: true, example: 200 })).toEqual({
      type: ['integer', 'null'],
      example: 200,
    });
    expect(toJsonSchemaNullability({ type: 'string', enum: ['USDC'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['USDC', null],
    });
    expect(toJsonSchemaNullability({ properties: { a: { $ref: '#/x', nullable: true } } })).toEqual({
      properties: { a: { oneOf: [{ $ref: '#/x' }, { type: 'null' }] } },
    });
    expect(toJsonSchemaNullability({ type: 'string', nullable: false })).toEqual({ type: 'string' });
  });

  it('keeps only the schemas reachable from the roots, following refs between schemas', () => {
    const schemas = {
      Order: { properties: { problem: { $ref: '#/components/schemas/Problem' } } },
      Problem: { properties: { errors: { items: { $ref: '#/components/schemas/FieldError' } } } },
      FieldError: { type: 'object' },
      AdminOnly: { type: 'object' },
    };
    const kept = reachableSchemas(schemas, [{ schema: { $ref: '#/components/schemas/Order' } }]);
    expect(Object.keys(kept).sort()).toEqual(['FieldError', 'Order', 'Problem']);
    expect(() => reachableSchemas(schemas, [{ $ref: '#/components/schemas/Missing' }])).toThrow(/Missing/);
  });

  it('sorts paths, methods and status codes but keeps properties in reading order', () => {
    const doc = canonicalOrder({
      components: { schemas: { B: { properties: { z: {}, a: {} }, type: 'object' }, A: {} } },
      paths: { '/b': { post: { responses: { '400': {}, '200': {} } }, get: {} }, '/a': {} },
      info: { title: 't', version: '1' },
      openapi: '3.1.0',
    });
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'paths', 'components']);
    expect(JSON.stringify(doc.paths)).toBe(
      JSON.stringify({ '/a': {}, '/b': { get: {}, post: { responses: { '200': {}, '400': {} } } } }),
    );
    expect(JSON.stringify(doc.components)).toBe(
      JSON.stringify({ schemas: { A: {}, B: { type: 'object', properties: { z: {}, a: {} } } } }),
    );
  });
});
