// The gateway as a library: apps/gateway/src/main.ts, the embedded runner, the OpenAPI generator (its
// route table) and the gateway's integration tests all start here.
export { GATEWAY_CONFIG, gatewayEnvSpec, loadGatewayConfig, loadGatewayRuntime } from './config';
export type { GatewayConfig, GatewayRuntime, UpstreamName } from './config';
export { OPENAPI_DOCS_DIR } from './docs/api-docs.routes';
export { earlyHandOffs } from './proxy/early-handoff';
export { InProcessUpstreams } from './proxy/in-process-upstreams';
export { GatewayModule } from './gateway.module';
export { isBlockedPath, ROUTE_TABLE } from './routes';
export type { ListenerName, RouteRule } from './routes';
export { ADMIN_BIND_HOST, startGateway } from './start-gateway';
export type { GatewayStartOptions, RunningGateway } from './start-gateway';
