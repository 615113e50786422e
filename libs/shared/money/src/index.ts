export * from './decimal';
export * from './amounts';
