export * from './fx-quote';
export * from './settlement-state';
export * from './retry-policy';
export * from './fee-replacement';
export * from './broadcast-errors';
export * from './gas-limit';
export * from './payout-caps';
export * from './pool-stall';
