import { AsyncLocalStorage, AsyncResource, executionAsyncResource } from 'node:async_hooks';

import { installLeanAsyncResourceBind } from './async-resource-bind';

describe('installLeanAsyncResourceBind', () => {
  const store = new AsyncLocalStorage<string>();
  beforeAll(() => installLeanAsyncResourceBind());

  it('runs the bound function in the async scope it was bound in, with its this and arguments', async () => {
    const resource = new AsyncResource('test');
    const bound = store.run('at bind', () =>
      new AsyncResource('test').bind(function (this: unknown, a: number, b: number) {
        return { store: store.getStore(), self: this, sum: a + b };
      }),
    );
    const self = { name: 'caller' };
    const later = await store.run('at call', () => Promise.resolve().then(() => bound.call(self, 2, 3)));
    expect(later).toEqual({ store: 'at bind', self, sum: 5 });
    expect(resource.bind(() => executionAsyncResource())()).toBe(resource);
  });

  it('binds thisArg when given, and AsyncResource.bind goes through it', () => {
    const self = { name: 'bound this' };
    // Node takes a thisArg (as Function#bind does); its types do not declare it.
    const bindWithThis = AsyncResource.prototype.bind as unknown as (
      this: AsyncResource,
      fn: () => unknown,
      thisArg: unknown,
    ) => () => unknown;
    const withThis = bindWithThis.call(
      new AsyncResource('test'),
      function (this: unknown) {
        return this;
      },
      self,
    );
    expect(withThis.call({ other: true })).toBe(self);
    const viaStatic = store.run('static', () => AsyncResource.bind(() => store.getStore()));
    expect(viaStatic()).toBe('static');
  });

  it("keeps the function's length and drops the deprecated asyncResource accessor", () => {
    const bound = new AsyncResource('test').bind((a: number, b: number, c: number) => a + b + c);
    expect(bound.length).toBe(3);
    expect(Object.getOwnPropertyDescriptor(bound, 'asyncResource')).toBeUndefined();
  });

  it('refuses what is not a function as Node does', () => {
    const resource = new AsyncResource('test');
    expect(() => resource.bind('not a function' as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });
});
