export * from './metrics/prometheus-format';
export * from './metrics/metrics-registry';
export * from './metrics/http-metrics';
export * from './metrics/metrics-access';
export * from './metrics/metrics.controller';
export * from './metrics/metrics.module';
export * from './tracing/tracing';
export * from './tracing/http-tracing';
