import { ApiHeader } from '@nestjs/swagger';

// docs/api.md, Conventions: same key + same body replays the first response; another body is a 409.
export const ApiIdempotencyKey = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes a retried POST safe. Scoped to the merchant and kept at least 24 hours: the same key with the same body returns the first response again (no second resource); the same key with a different body is answered 409. 1 to 255 visible ASCII characters, e.g. a UUID.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
    example: '5f0c1f7e-8a55-4a55-9d8e-2b1c4a6f9e01',
  });
