import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'SepaCreditAccepted', description: 'The sandbox bank booked the credit.' })
export class SepaCreditAcceptedResponse {
  @ApiProperty({
    description: 'Id of the bank transaction. Matching and the order update follow asynchronously.',
    format: 'uuid',
    example: '9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d',
  })
  bankTransactionId!: string;

  @ApiPropertyOptional({
    description:
      'Only when the credit pays nothing now: no open order has its reference (it is kept and pays an order created later with that reference), or the reference was already paid.',
    example: 'no open order of yours has this reference (yet): ...',
  })
  hint?: string;
}
