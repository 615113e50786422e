export * from './camt/bank-statement';
export * from './camt/camt-parser';
export * from './rf-reading';
export * from './amount-policy';
export * from './payer-name';
export * from './pain001-return';
export * from './sepa-text';
export * from './reference-matching';
