export * from './app-logger';
export * from './json-logger';
export * from './log-context';
export * from './redact';
