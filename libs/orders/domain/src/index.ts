export * from './order-status';
export * from './order-amount';
export * from './webhook-bodies';
export * from './recipient-address';
