// chain-settlement as a library: apps/chain-settlement/src/main.ts, the embedded runner, the migrate
// tool and the service's integration tests all start here.
export { loadChainSettlementConfig, loadChainSettlementRuntime, SETTLEMENT_SCHEMA } from './config';
export type { ChainSettlementConfig, ChainSettlementRuntime, PayoutCaps, SignerConfig } from './config';
export { SERVICE_DATABASE } from './database';
export { ChainSettlementModule } from './chain-settlement.module';
export { startChainSettlement } from './start-chain-settlement';
// The providers the service's integration tests drive directly (app.get), to run one worker step or
// pass without waiting for the clock.
export { DriveInFlightStep } from './worker/drive-in-flight.step';
export { SettlementWorker } from './worker/settlement-worker';
export { SignPendingStep } from './worker/sign-pending.step';
export { SignerLeases } from './signers/signer-leases';
export type { OnPicked, StepResult } from './worker/step-result';
// The migrations the migration test replays one by one (the rest of the list is SERVICE_DATABASE).
export { CreateSettlementTables1763800100000 } from './migrations/1763800100000-create-settlement-tables';
export { CreateSettlementTransactions1763800200000 } from './migrations/1763800200000-create-settlement-transactions';
