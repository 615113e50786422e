import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

import { KYC_STATUSES, KycStatus } from '@onramp/contracts';

import { KycAddressDto } from './dto/kyc-address.dto';
import { KycDocumentDto } from './dto/kyc-document.dto';
import { KycUserResponse } from './kyc-user.presenter';

// The documented KYC object (kyc-user.presenter.ts builds it); `implements` keeps both in step.
@ApiSchema({
  name: 'KycUser',
  description: 'A registered end user: the submitted data plus uuid and status.',
})
export class KycUserResponseBody implements KycUserResponse {
  @ApiProperty({
    description: 'Identifier of the end user; send it as `kycUserUuid` when creating orders.',
    format: 'uuid',
    example: '01937a8e-4c2b-7d10-9a31-5f2e8b6c4d20',
  })
  uuid!: string;

  @ApiPropertyOptional({
    description: "The merchant's own id for this end user, if one was given.",
    example: 'customer-4711',
  })
  externalId?: string;

  @ApiProperty({ example: 'Ada' })
  firstName!: string;

  @ApiProperty({ example: 'Lovelace' })
  lastName!: string;

  @ApiProperty({ format: 'date', example: '1990-12-10' })
  dateOfBirth!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2, upper case.', example: 'DE' })
  nationality!: string;

  @ApiProperty({ format: 'email', example: 'ada@example.com' })
  email!: string;

  @ApiPropertyOptional({ description: 'E.164.', example: '+4915112345678' })
  phone?: string;

  @ApiProperty({ type: () => KycAddressDto })
  address!: KycAddressDto;

  @ApiPropertyOptional({ type: () => KycDocumentDto })
  document?: KycDocumentDto;

  @ApiProperty({
    description:
      'Only an `APPROVED` user can place orders. The sandbox approves unless the person is under 18 or the document has expired (`REJECTED`); production waits for a manual review (`PENDING_REVIEW`).',
    enum: KYC_STATUSES,
    example: 'APPROVED',
  })
  status!: KycStatus;

  @ApiPropertyOptional({ description: 'Why the user is not approved.', example: 'applicant is under 18' })
  statusReason?: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:30:00.000Z' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:30:00.000Z' })
  updatedAt!: string;
}
