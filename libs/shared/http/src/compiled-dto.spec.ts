import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  registerDecorator,
  ValidateIf,
} from 'class-validator';

import { compileDto } from './compiled-dto';
import { OptionalField } from './optional-field';
import { ProblemValidationPipe } from './validation.pipe';

function IsEvenNumber(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEvenNumber',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0 },
    });
}

// The shapes our request DTOs use: a field required unless its alias is sent, an optional field,
// a custom constraint, a list of allowed values, IsOptional (which lets null through).
class Request {
  @IsEvenNumber()
  amount!: number;

  @IsIn(['EUR'])
  currency!: string;

  @ValidateIf((o: Request) => o.primary !== undefined || o.alias === undefined)
  @IsString()
  @MaxLength(5)
  primary?: string;

  @OptionalField()
  @IsString()
  alias?: string;

  @IsOptional()
  @IsInt()
  count?: number | null;

  @IsUUID('all')
  id!: string;
}

class Transformed {
  @Transform(({ value }) => String(value).trim())
  @IsString()
  name!: string;
}

class Typed {
  @Type(() => Number)
  @IsInt()
  limit!: number;
}

class WithDefault {
  @IsOptional()
  @IsString()
  kind = 'plain';
}

const ID = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
const VALUES: Record<string, unknown[]> = {
  amount: [2, 3, '2', null, { n: 2 }, undefined],
  currency: ['EUR', 'USD', null, ['EUR'], undefined],
  primary: ['abc', 'abcdef', 7, null, undefined],
  alias: ['x', 7, null, undefined],
  count: [1, 1.5, null, 'one', undefined],
  id: [ID, 'nope', undefined],
  extra: ['kept out', { nested: true }, undefined],
};

// Every combination would be 20,000 inputs; a deterministic sample of them, in shuffled key order.
function inputs(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let state = 7;
  const next = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
  for (let i = 0; i < 1500; i++) {
    const entries = Object.entries(VALUES)
      .map(([key, values]) => [key, values[next(values.length)]] as const)
      .filter(([, value]) => value !== undefined);
    entries.sort(() => next(3) - 1);
    out.push(Object.fromEntries(entries));
  }
  return out;
}

// As the body parser hands it over (structuredClone would give objects of another realm here).
const copy = (input: object): object => JSON.parse(JSON.stringify(input)) as object;

type Outcome = { value: unknown; keys: string[]; proto: unknown } | { error: unknown };

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const value = await run();
    return { value, keys: Object.keys(value as object), proto: Object.getPrototypeOf(value) };
  } catch (err) {
    return { error: (err as { getResponse(): unknown }).getResponse() };
  }
}

describe('compiled request DTOs', () => {
  const pipe = new ProblemValidationPipe();
  const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });
  // The pipe as it ran before the compiled path: ValidationPipe's own transform with our options.
  const throughPipe = (value: unknown, metadata: ArgumentMetadata) =>
    ValidationPipe.prototype.transform.call(pipe, value, metadata);

  it('gives, for every input, what the validation pipe gives: the same instance or the same 400', async () => {
    let compiled = 0;
    const build = compileDto(Request);
    expect(build).toBeDefined();
    for (const input of inputs()) {
      const fast = await outcome(() => pipe.transform(copy(input), body(Request)));
      const slow = await outcome(() => throughPipe(copy(input), body(Request)));
      expect([input, fast]).toEqual([input, slow]);
      if (build?.(copy(input))) compiled++;
    }
    // The sample holds valid inputs, so the compiled path is taken, not only the fallback.
    expect(compiled).toBeGreaterThan(5);
  });

  it('builds an instance of the class with only its decorated fields, in the order they came', () => {
    const dto = compileDto(Request)?.({ id: ID, extra: 'x', currency: 'EUR', amount: 4, alias: 'a' });
    expect(dto).toBeInstanceOf(Request);
    expect(Object.keys(dto as object)).toEqual(['id', 'currency', 'amount', 'alias']);
  });

  it('leaves an object or array value to the pipe', () => {
    expect(compileDto(Request)?.({ id: ID, currency: 'EUR', amount: 4, alias: ['a'] })).toBeUndefined();
  });

  it('does not compile classes that class-transformer changes on the way in', () => {
    expect(compileDto(Transformed)).toBeUndefined();
    expect(compileDto(Typed)).toBeUndefined();
    expect(compileDto(WithDefault)).toBeUndefined();
  });

  it('still transforms those through the pipe', async () => {
    await expect(pipe.transform({ name: '  ann ' }, body(Transformed))).resolves.toEqual({ name: 'ann' });
    await expect(pipe.transform({ limit: '5' }, { type: 'query', metatype: Typed })).resolves.toEqual({
      limit: 5,
    });
  });
});
