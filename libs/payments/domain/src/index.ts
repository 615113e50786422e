export * from './camt/bank-statement';
export * from './camt/camt-parser';
export * from './rf-reading';
export * from './amount-policy';
export * from './payer-name';
export * from './pain001-return';
export * from './epc-qr-payload';
export * from './sepa-text';
