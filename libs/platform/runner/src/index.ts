export * from './config';
export * from './platform';
export * from './embedded';
export { waitForStaleServers } from './data-dir-lock';
export * from './ports';
export * from './secrets';
