// The one list of networks where tokens are worth real money, and the rule that keeps sandbox mode
// (fake SEPA credits anyone can post) away from them. docs/configuration.md documents both.

// Mainnets: sandbox mode refuses these chain ids, with no override.
export const REAL_MONEY_CHAINS: Readonly<Record<number, string>> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  25: 'Cronos',
  56: 'BNB Smart Chain',
  100: 'Gnosis',
  130: 'Unichain',
  137: 'Polygon PoS',
  146: 'Sonic',
  250: 'Fantom Opera',
  324: 'zkSync Era',
  480: 'World Chain',
  1101: 'Polygon zkEVM',
  1284: 'Moonbeam',
  2222: 'Kava',
  5000: 'Mantle',
  8217: 'Kaia',
  8453: 'Base',
  34443: 'Mode',
  42161: 'Arbitrum One',
  42170: 'Arbitrum Nova',
  42220: 'Celo',
  43114: 'Avalanche C-Chain',
  59144: 'Linea',
  81457: 'Blast',
  534352: 'Scroll',
  7777777: 'Zora',
};

// Local dev chains and public testnets: sandbox mode accepts these as they are.
export const KNOWN_TEST_CHAINS: Readonly<Record<number, string>> = {
  31337: 'anvil / hardhat',
  1337: 'local dev chain',
  11155111: 'Ethereum Sepolia',
  17000: 'Ethereum Holesky',
  560048: 'Ethereum Hoodi',
  421614: 'Arbitrum Sepolia',
  84532: 'Base Sepolia',
  11155420: 'OP Sepolia',
  80002: 'Polygon Amoy',
  43113: 'Avalanche Fuji',
  97: 'BNB Smart Chain testnet',
};

// Any other chain id in sandbox needs SANDBOX_TESTNET=<name>:<chain id>, naming that very chain: an
// operator states which testnet they mean, so a typo in CHAIN_ID cannot slip through.
export const SANDBOX_TESTNET_VAR = 'SANDBOX_TESTNET';

// Why this chain id may not be used in this mode, or undefined when it may.
export function sandboxChainProblem(
  mode: 'sandbox' | 'production',
  chainId: number,
  sandboxTestnet: string | undefined,
): string | undefined {
  if (mode !== 'sandbox') return undefined;
  const mainnet = REAL_MONEY_CHAINS[chainId];
  if (mainnet !== undefined) {
    return (
      `CHAIN_ID ${chainId} is ${mainnet}, a network with real money: ONRAMP_MODE=sandbox accepts fake ` +
      `bank credits from anyone and must never pay out there (use ONRAMP_MODE=production, or a testnet ` +
      `chain id such as 421614 Arbitrum Sepolia); no setting overrides this`
    );
  }
  if (KNOWN_TEST_CHAINS[chainId] !== undefined) return undefined;
  const allowance = parseSandboxTestnet(sandboxTestnet);
  if (allowance === 'malformed') {
    return `${SANDBOX_TESTNET_VAR} must be <name>:<chain id>, e.g. my-devnet:${chainId}`;
  }
  if (allowance?.chainId === chainId) return undefined;
  return (
    `CHAIN_ID ${chainId} is not a known testnet: ONRAMP_MODE=sandbox runs only on test chains; ` +
    `if it is one, name it with ${SANDBOX_TESTNET_VAR}=<name>:${chainId}`
  );
}

function parseSandboxTestnet(
  raw: string | undefined,
): { name: string; chainId: number } | 'malformed' | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const m = /^([A-Za-z][\w.-]*):(\d+)$/.exec(raw.trim());
  if (!m) return 'malformed';
  return { name: m[1] as string, chainId: Number(m[2]) };
}
