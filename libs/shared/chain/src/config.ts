import { loadEnv } from '@onramp/config';

// The one reader of the environment in this lib: where the local tools are and which node to use.
// Everything else takes these as arguments (startAnvil's `binary`, compileTestUsdc's `cacheDir`); a
// caller that passes nothing gets what this parser reads, so a spec or a tool starting its own anvil
// honours ANVIL_BIN like `npm start` does.
export interface LocalChainConfig {
  anvilBin?: string; // ANVIL_BIN: another anvil than the @foundry-rs/anvil binary
  cacheDir?: string; // ONRAMP_CACHE: where compiled artifacts (and the Kafka jars) are kept
  rpcUrl?: string; // RPC_URL: an existing node to use instead of starting anvil
}

// Unset and empty both mean "not given", as the launcher always treated them.
const given = (raw: string | undefined): string | undefined => raw || undefined;

export function loadLocalChainConfig(source: NodeJS.ProcessEnv = process.env): LocalChainConfig {
  const env = loadEnv({ ANVIL_BIN: given, ONRAMP_CACHE: given, RPC_URL: given }, source);
  return { anvilBin: env.ANVIL_BIN, cacheDir: env.ONRAMP_CACHE, rpcUrl: env.RPC_URL };
}
