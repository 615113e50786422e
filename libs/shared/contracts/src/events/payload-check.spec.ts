import { plainToInstance } from 'class-transformer';
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  ValidateNested,
  validateSync,
} from 'class-validator';

import { Topics } from '../topics';

import { EVENT_PAYLOAD_CLASSES, EventType } from './event-map';
import { compilePayloadCheck } from './payload-check';
import { InvalidEventError, validatePayload } from './validate-event';

// Values of every kind the payloads hold, valid for some field and not for others.
const CANDIDATES: unknown[] = [
  '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b',
  '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5',
  'not-a-uuid',
  '100.10',
  '0',
  '-1',
  '1e3',
  'EUR',
  'USDC',
  'usdc',
  'APPROVED',
  'REJECTED',
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x5290840009852788',
  `0x${'ab'.repeat(32)}`,
  '2025-03-01T12:00:00.123Z',
  '2025-13-01',
  'RF18539007547034',
  '',
  'x'.repeat(600),
  1,
  0,
  -3,
  2.5,
  true,
  null,
  undefined,
  [],
  {},
];

// class-validator's own verdict, as validatePayload reached it before the compiled check.
function classValidatorPasses(cls: new () => object, data: Record<string, unknown>): boolean {
  return validateSync(plainToInstance(cls, data), { forbidUnknownValues: false }).length === 0;
}

function propertiesOf(cls: new () => object): string[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false, undefined);
  return [...new Set(metadatas.map((m) => m.propertyName))];
}

// A small deterministic generator, so a failure names a case that comes back.
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('compiled payload checks', () => {
  const types = Object.keys(EVENT_PAYLOAD_CLASSES) as EventType[];

  it.each(types)('%s: is compiled, and passes exactly what class-validator passes', (type) => {
    const cls = EVENT_PAYLOAD_CLASSES[type] as new () => object;
    const check = compilePayloadCheck(cls);
    expect(check).toBeDefined();
    const properties = propertiesOf(cls);
    // For each field, the candidates class-validator takes in it when every other field is absent
    // (the field's own errors only): mostly these, so that many whole payloads are valid.
    const fitting = new Map<string, unknown[]>();
    for (const property of properties) {
      fitting.set(
        property,
        CANDIDATES.filter((value) => {
          const errors = validateSync(plainToInstance(cls, { [property]: value }), {
            forbidUnknownValues: false,
          });
          return !errors.some((e) => e.property === property);
        }),
      );
    }
    const random = lcg(type.length * 7919);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
    let passed = 0;
    for (let i = 0; i < 400; i++) {
      const data: Record<string, unknown> = {};
      for (const property of properties) {
        const good = fitting.get(property) ?? [];
        const value = good.length > 0 && random() < 0.93 ? pick(good) : pick(CANDIDATES);
        if (value !== undefined || random() < 0.5) data[property] = value;
      }
      if (random() < 0.2) data.unknownField = pick(CANDIDATES);
      const expected = classValidatorPasses(cls, data);
      if (check?.(data) !== expected)
        throw new Error(`${type}: ${JSON.stringify(data)} expected ${expected}`);
      if (expected) passed++;
    }
    expect(passed).toBeGreaterThan(20); // the comparison saw valid payloads, not only refusals
  });

  it('leaves a class to class-validator when it uses what the checks do not compile', () => {
    class Nested {
      @IsInt()
      n!: number;
    }
    class WithNested {
      @ValidateNested()
      inner!: Nested;
    }
    class WithGroups {
      @IsString({ groups: ['admin'] })
      name!: string;
    }
    class WithEach {
      @IsString({ each: true })
      names!: string[];
    }
    class WithDefault {
      @IsOptional()
      @IsString()
      name = 'default';
    }
    class Undecorated {
      name!: string;
    }
    for (const cls of [WithNested, WithGroups, WithEach, WithDefault, Undecorated]) {
      expect(compilePayloadCheck(cls)).toBeUndefined();
    }
  });

  it('still words the error of a refused payload as class-validator does', () => {
    expect(() => validatePayload(Topics.PaymentConfirmed, { orderUuid: 'nope' })).toThrow(InvalidEventError);
    expect(() => validatePayload(Topics.PaymentConfirmed, { orderUuid: 'nope' })).toThrow(
      /payment\.confirmed: orderUuid: orderUuid must be a UUID;/,
    );
  });
});
