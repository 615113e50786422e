export * from './platform';
export * from './ports';
export * from './secrets';
