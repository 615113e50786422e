import { AsyncResource } from 'node:async_hooks';

type Bind = (this: AsyncResource, fn: (...args: never[]) => unknown, thisArg?: unknown) => unknown;

let installed = false;

// Fastify binds a callback to an AsyncResource for every request body it parses, and Nest twice for
// every interceptor a request passes. On Node 20 each AsyncResource#bind also defines the deprecated
// `asyncResource` accessor (DEP0172) on the bound function, through two util.deprecate wrappers:
// 2 % of the platform's CPU while it creates orders (`npm run bench -- --only P1 --cpu-prof`), more
// than the binding itself. This bind is Node's without that accessor, which nothing we run reads;
// the bound function runs in the resource's async scope with the same `this` and arguments as
// before. Installed only where the accessor exists (Node versions that dropped it need nothing).
export function installLeanAsyncResourceBind(): void {
  if (installed || !hasDeprecatedAccessor()) return;
  installed = true;
  const original = AsyncResource.prototype.bind as unknown as Bind;
  const lean: Bind = function (this: AsyncResource, fn, thisArg) {
    // Node's own check and error (ERR_INVALID_ARG_TYPE) for anything that is not a function.
    if (typeof fn !== 'function') return original.call(this, fn, thisArg);
    return bindWithoutAccessor(this, fn as (...args: unknown[]) => unknown, thisArg);
  };
  AsyncResource.prototype.bind = lean as unknown as AsyncResource['bind'];
}

function bindWithoutAccessor(
  resource: AsyncResource,
  fn: (...args: unknown[]) => unknown,
  thisArg: unknown,
): unknown {
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]): unknown {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, fn, thisArg);
  return Object.defineProperty(bound, 'length', {
    configurable: true,
    enumerable: false,
    value: fn.length,
    writable: false,
  });
}

function hasDeprecatedAccessor(): boolean {
  const bound = new AsyncResource('probe').bind(() => undefined);
  return typeof Object.getOwnPropertyDescriptor(bound, 'asyncResource')?.get === 'function';
}
