export * from './rf-reference';
