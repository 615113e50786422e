// POST /sandbox/sepa-credits (sandbox mode only): "the end user paid" as one call.
export interface SandboxSepaCreditRequest {
  reference?: string;
  amount: number | string;
  currency: 'EUR';
  payerName: string;
  payerIban?: string;
  remittanceInformation?: string; // the reference may sit inside this free text
  endToEndId?: string;
  status?: 'BOOKED' | 'REJECTED';
}

export interface SandboxSepaCreditResult {
  bankTransactionId: string;
}
