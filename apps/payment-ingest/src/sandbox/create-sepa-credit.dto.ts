import { IsIBAN, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { BANK_TRANSACTION_STATUSES, BankTransactionStatus } from '../bank/bank-transaction.entity';
import { IsEurAmount } from './eur-amount.validator';

// What a bank feed tells us about one incoming SEPA credit (DESIGN.md section 5, sandbox bank).
export class CreateSepaCreditDto {
  @IsOptional()
  @IsString()
  @MaxLength(140)
  reference?: string;

  @IsEurAmount()
  amount!: number | string;

  @IsIn(['EUR'], { message: 'currency must be EUR' })
  currency!: 'EUR';

  @IsString()
  @Matches(/\S/, { message: 'payerName must not be empty' })
  @MaxLength(140)
  payerName!: string;

  @IsOptional()
  @IsIBAN({}, { message: 'payerIban must be an IBAN' })
  payerIban?: string;

  @IsOptional()
  @IsString()
  @MaxLength(140) // SEPA unstructured remittance information
  remittanceInformation?: string;

  @IsOptional()
  @IsString()
  @MaxLength(35)
  endToEndId?: string;

  @IsOptional()
  @IsIn(BANK_TRANSACTION_STATUSES, { message: 'status must be BOOKED or REJECTED' })
  status?: BankTransactionStatus;
}
