import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

// A payload class's class-validator decorators, worked out once into a plain list of checks.
//
// class-validator works a class's decorators out again on every call (it filters every decorator
// the process registered), and the payload is first copied into an instance by class-transformer:
// both ran for every event written and again for every event consumed, about a twentieth of the
// embedded platform's CPU while it paid out (the burst of docs/performance-journal.md, P3). The checks here
// call the same constraint objects the decorators registered (`isUUID`, `matches`, ...), with the
// same conditions (`@IsOptional`, `@ValidateIf`), so they pass exactly what class-validator passes.
// Only a pass is taken from them: a payload they refuse goes through class-validator itself, which
// words the error. A class using anything else (nested or `each` validation, groups, `always`,
// defaults set by its constructor) gets no compiled check and is always validated by class-validator.
export type PayloadCheck = (data: Record<string, unknown>) => boolean;

type Condition = (object: object, value: unknown) => boolean;

interface ConstraintCheck {
  validate(value: unknown, args: ValidationArguments): unknown;
  constraints: unknown[];
  validateIf?: Condition;
}

interface PropertyChecks {
  property: string;
  conditions: Condition[];
  checks: ConstraintCheck[];
}

interface DecoratorMetadata {
  type: string;
  propertyName: string;
  constraints: unknown[];
  constraintCls: new (...args: unknown[]) => unknown;
  each?: boolean;
  always?: boolean;
  groups?: string[];
  validateIf?: Condition;
}

interface ConstraintMetadata {
  async: boolean;
  instance: { validate(value: unknown, args: ValidationArguments): unknown };
}

export function compilePayloadCheck(cls: new () => object): PayloadCheck | undefined {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(
    cls,
    '',
    false,
    false,
    undefined,
  ) as unknown as DecoratorMetadata[];
  if (metadatas.length === 0 || !constructsEmpty(cls)) return undefined;

  const byProperty = new Map<string, PropertyChecks>();
  for (const m of metadatas) {
    if (m.each || m.always !== undefined || (m.groups && m.groups.length > 0)) return undefined;
    // A name an instance would find on a prototype (toString, ...) reads differently off plain data.
    if (m.propertyName in cls.prototype) return undefined;
    let entry = byProperty.get(m.propertyName);
    if (!entry) {
      entry = { property: m.propertyName, conditions: [], checks: [] };
      byProperty.set(m.propertyName, entry);
    }
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      entry.conditions.push(m.constraints[0] as Condition);
    } else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
      const constraints = storage.getTargetValidatorConstraints(
        m.constraintCls,
      ) as unknown as ConstraintMetadata[];
      for (const c of constraints) {
        // validateSync leaves asynchronous constraints out; so do the checks
        if (c.async) continue;
        entry.checks.push({
          validate: (value, args) => c.instance.validate(value, args),
          constraints: m.constraints,
          validateIf: m.validateIf,
        });
      }
    } else {
      return undefined; // nested, IS_DEFINED, whitelist or promise validation: not compiled
    }
  }
  const properties = [...byProperty.values()];
  const targetName = cls.name;

  return (data) => {
    for (const { property, conditions, checks } of properties) {
      const value = Object.prototype.hasOwnProperty.call(data, property) ? data[property] : undefined;
      if (!conditions.every((condition) => condition(data, value))) continue;
      for (const check of checks) {
        if (check.validateIf && !check.validateIf(data, value)) continue;
        const args: ValidationArguments = {
          targetName,
          property,
          object: data,
          value,
          constraints: check.constraints,
        };
        const valid = check.validate(value, args);
        // a constraint that answers with a promise is left out by validateSync, whatever it says
        if (valid instanceof Promise) continue;
        if (!valid) return false;
      }
    }
    return true;
  };
}

// class-transformer builds the instance with `new cls()`: a constructor that sets a field (a
// default) would make the instance differ from the data, so such a class is not compiled.
function constructsEmpty(cls: new () => object): boolean {
  try {
    return Object.values(new cls()).every((value) => value === undefined);
  } catch {
    return false;
  }
}
