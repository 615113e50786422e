import { ValidationPipe } from '@nestjs/common';

import { compileDto, ProblemException, ProblemValidationPipe } from '@onramp/http';

import { CreateOrderDto } from './create-order.dto';

const KYC = '01937a8e-4c2b-7d10-9a31-5f2e8b6c4d20';
const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

// Order creation is the API's hottest request: its body must take the compiled path (see
// compiled-dto.ts in @onramp/http), and give there what the validation pipe gives.
describe('CreateOrderDto through the compiled path', () => {
  const pipe = new ProblemValidationPipe();
  const metadata = { type: 'body', metatype: CreateOrderDto } as const;

  it('compiles, and builds valid bodies (either address spelling) as the pipe does', async () => {
    const build = compileDto(CreateOrderDto);
    expect(build).toBeDefined();
    for (const body of [
      { amount: 100.5, currency: 'EUR', recepientAddress: CHECKSUMMED, kycUserUuid: KYC },
      {
        kycUserUuid: KYC,
        recipientAddress: CHECKSUMMED.toLowerCase(),
        currency: 'EUR',
        amount: 1,
        note: 'x',
      },
      {
        amount: 7,
        currency: 'EUR',
        recepientAddress: CHECKSUMMED,
        recipientAddress: CHECKSUMMED,
        kycUserUuid: KYC,
      },
    ]) {
      const fast = build?.({ ...body });
      expect(fast).toBeInstanceOf(CreateOrderDto);
      expect(fast).toEqual(await ValidationPipe.prototype.transform.call(pipe, { ...body }, metadata));
    }
  });

  it('leaves refused bodies to the pipe, which names the field', async () => {
    for (const [body, field] of [
      [{ amount: '100.50', currency: 'EUR', recepientAddress: CHECKSUMMED, kycUserUuid: KYC }, 'amount'],
      [{ amount: 1, currency: 'EUR', kycUserUuid: KYC }, 'recepientAddress'],
      [
        { amount: 1, currency: 'EUR', recepientAddress: CHECKSUMMED.replace('C5', 'c5'), kycUserUuid: KYC },
        'recepientAddress',
      ],
      [{ amount: 1, currency: 'USD', recepientAddress: CHECKSUMMED, kycUserUuid: KYC }, 'currency'],
    ] as const) {
      expect(compileDto(CreateOrderDto)?.({ ...body })).toBeUndefined();
      const refusal = await pipe.transform({ ...body }, metadata).catch((err: ProblemException) => err);
      expect(refusal).toBeInstanceOf(ProblemException);
      expect((refusal as ProblemException).getStatus()).toBe(400);
      expect((refusal as ProblemException).extras.errors).toContainEqual(expect.objectContaining({ field }));
    }
  });
});
