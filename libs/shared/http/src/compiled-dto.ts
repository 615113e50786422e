import { TransformationType } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';

import { compilePayloadCheck } from '@onramp/contracts';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- class-transformer's decorator metadata; the module has no declaration beside it
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

// A request DTO's instance built and checked without class-transformer and class-validator's
// per-request work (P1's profile: about 4 % of an order's CPU, mostly class-validator finding the
// class's decorators again among every decorator the process registered).
//
// What the validation pipe (whitelist + transform) returns for a valid input is `new cls()` with
// the input's decorated properties copied in the input's key order; class-transformer copies a
// string, number, boolean or null as it is. So when every decorated value is such a primitive and
// the compiled check (the same constraint objects, see compilePayloadCheck) passes on that instance,
// the instance is what the pipe would have returned. Anything else (an object or array value, a
// refused value, a class with class-transformer decorators or constructor defaults) answers
// undefined, and the caller runs the pipe itself, which also words every error.
export type DtoBuilder = (input: object) => object | undefined;

type DtoClass = new () => object;

export function compileDto(cls: DtoClass): DtoBuilder | undefined {
  const check = compilePayloadCheck(cls);
  if (!check) return undefined;
  const properties = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', false, false, undefined)
      .map((m) => m.propertyName),
  );
  if (!plainCopy(cls, properties)) return undefined;

  return (input) => {
    const dto = new cls() as Record<string, unknown>;
    for (const key of Object.keys(input)) {
      if (!properties.has(key)) continue; // what whitelist would strip
      const value = (input as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object') return undefined;
      dto[key] = value;
    }
    return check(dto) ? dto : undefined;
  };
}

// class-transformer copies each property as it is only when the class has none of its decorators:
// no @Expose/@Exclude (on the class or a property), no @Type, no @Transform.
function plainCopy(cls: DtoClass, properties: Set<string>): boolean {
  const storage = defaultMetadataStorage;
  if (storage.getStrategy(cls) !== 'none') return false;
  if (storage.getExposedMetadatas(cls).length > 0 || storage.getExcludedMetadatas(cls).length > 0)
    return false;
  for (const property of properties) {
    if (storage.findTypeMetadata(cls, property)) return false;
    if (storage.findTransformMetadatas(cls, property, TransformationType.PLAIN_TO_CLASS).length > 0)
      return false;
  }
  return true;
}
