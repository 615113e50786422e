import { loadChainSettlementConfig, startChainSettlement } from '@onramp/settlement-feature';
import { runService } from '@onramp/service-runtime';

// The process edge: the only place chain-settlement reads its environment.
runService('chain-settlement', process.env, (env) => startChainSettlement(loadChainSettlementConfig(env)));
