export * from './field-cipher';
export * from './development-keys';
