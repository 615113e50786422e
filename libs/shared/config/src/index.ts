export * from './env';
export * from './common-env';
export * from './chain-networks';
export * from './dev-keys';
