import { loadAuthConfig, startAuth } from '@onramp/auth-feature';
import { runService } from '@onramp/service-runtime';

// The process edge: the only place auth reads its environment.
runService('auth', process.env, (env) => startAuth(loadAuthConfig(env)));
