// kyc as a library: apps/kyc/src/main.ts, the embedded runner, the OpenAPI generator, the migrate tool
// and the service's integration tests all start here.
export { DEV_KYC_ENCRYPTION_KEY, KYC_SCHEMA, loadKycConfig, loadKycRuntime } from './config';
export type { KycConfig, KycRuntime } from './config';
export { SERVICE_DATABASE } from './database';
export { KycModule } from './kyc.module';
export { startKyc } from './start-kyc';
