export * from './order-status';
export * from './order-amount';
export * from './order-outcome';
export * from './recipient-address';
