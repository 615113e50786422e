export * from './field-cipher';
export * from './development-keys';
export * from './key-ring';
export * from './payer-data';
export * from './pooled-random';
