import { loadGatewayConfig, startGateway } from '@onramp/gateway-feature';
import { runService } from '@onramp/service-runtime';

// The process edge: the only place the gateway reads its environment.
runService('gateway', process.env, (env) => startGateway(loadGatewayConfig(env)));
