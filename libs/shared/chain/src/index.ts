export {
  ANVIL_ACCOUNT_2_KEY,
  ANVIL_ACCOUNT_3_KEY,
  ANVIL_DEFAULT_CHAIN_ID,
  ANVIL_DEPLOYER_KEY,
  ANVIL_HOT_WALLET_KEY,
  anvilBinary,
  assertChainPortFree,
  freePort,
  startAnvil,
} from './anvil';
export type { AnvilHandle, StartAnvilOptions } from './anvil';
export { loadLocalChainConfig } from './config';
export type { LocalChainConfig } from './config';
export { ERC20_ABI, TEST_USDC_ABI, TEST_USDC_ADMIN_ABI, USDC_DECIMALS } from './erc20';
export {
  BALANCE_OF_SELECTOR,
  decodeBool,
  decodeUint256,
  encodeAddressCall,
  encodeErc20Transfer,
  IS_BLACKLISTED_SELECTOR,
} from './erc20-calldata';
export { NodeDecodingJsonRpcProvider } from './json-rpc-provider';
export { bootstrapLocalChain, deployTestUsdc, localProvider, setEthBalance } from './local-chain';
export type { BootstrapLocalChainOptions } from './local-chain';
export { compileTestUsdc, TEST_USDC_SOURCE_PATH } from './test-usdc-artifact';
export type { ContractArtifact } from './test-usdc-artifact';
export { signEip1559 } from './eip1559-transfer';
export type { Eip1559Fields, SignedEip1559 } from './eip1559-transfer';
export { Secp256k1Key } from './secp256k1-key';
export type { RecoverableSignature } from './secp256k1-key';
