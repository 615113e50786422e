import { InfraConfig, loadInfraConfig } from '@onramp/platform-infra';

// The one reader of the environment in the runner. The launchers take its result (LaunchOptions.config)
// and read nothing else: `npm start`, the bench, the soak and the e2e and chaos setups parse it.
export interface RunnerConfig {
  // The launching environment, as given: the ports (BASE_PORT, ...), ONRAMP_MODE, the local secrets
  // it names, LOG_FORMAT. Every app's config is parsed from it overlaid with what the runner computes
  // (embedded), and each app process inherits it (distributed).
  env: NodeJS.ProcessEnv;
  infra: InfraConfig; // the existing servers and local tools the infra launcher uses
}

export function loadRunnerConfig(source: NodeJS.ProcessEnv = process.env): RunnerConfig {
  return { env: source, infra: loadInfraConfig(source) };
}
