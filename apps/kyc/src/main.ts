import { loadKycConfig, startKyc } from '@onramp/kyc-feature';
import { runService } from '@onramp/service-runtime';

// The process edge: the only place kyc reads its environment.
runService('kyc', process.env, (env) => startKyc(loadKycConfig(env)));
