import { Contract, ContractFactory, JsonRpcProvider, Wallet } from 'ethers';

import { TEST_USDC_ABI } from './erc20';
import { compileTestUsdc } from './test-usdc-artifact';

export interface BootstrapLocalChainOptions {
  rpcUrl: string;
  deployerKey: string;
  fundAddresses: string[];
  usdcPerAddress: bigint; // base units (6 decimals)
  ethPerAddress?: bigint; // wei; for addresses that are not pre-funded dev accounts
  artifactCacheDir?: string; // where the compiled token is kept (compileTestUsdc's default otherwise)
}

// ethers v6 caches the pending nonce for 250 ms; anvil mines instantly, so back-to-back sends
// from one wallet would reuse a nonce. cacheTimeout -1 disables that cache.
export function localProvider(rpcUrl: string): JsonRpcProvider {
  return new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true });
}

export async function deployTestUsdc(
  rpcUrl: string,
  deployerKey: string,
  artifactCacheDir?: string,
): Promise<string> {
  const provider = localProvider(rpcUrl);
  try {
    const { abi, bytecode } = compileTestUsdc(artifactCacheDir);
    const factory = new ContractFactory(abi, bytecode, new Wallet(deployerKey, provider));
    const contract = await factory.deploy();
    await contract.waitForDeployment();
    return await contract.getAddress();
  } finally {
    provider.destroy();
  }
}

export async function bootstrapLocalChain(
  opts: BootstrapLocalChainOptions,
): Promise<{ usdcAddress: string }> {
  const usdcAddress = await deployTestUsdc(opts.rpcUrl, opts.deployerKey, opts.artifactCacheDir);
  const provider = localProvider(opts.rpcUrl);
  try {
    const deployer = new Wallet(opts.deployerKey, provider);
    const usdc = new Contract(usdcAddress, TEST_USDC_ABI, deployer);
    // explicit nonces: all sends go out at once and we wait for every receipt together
    let nonce = await deployer.getNonce('pending');
    const sent: Array<{ wait(): Promise<unknown> }> = [];
    for (const address of opts.fundAddresses) {
      if (opts.usdcPerAddress > 0n)
        sent.push(await usdc.getFunction('mint')(address, opts.usdcPerAddress, { nonce: nonce++ }));
      if (opts.ethPerAddress)
        sent.push(await deployer.sendTransaction({ to: address, value: opts.ethPerAddress, nonce: nonce++ }));
    }
    await Promise.all(sent.map((tx) => tx.wait()));
    return { usdcAddress };
  } finally {
    provider.destroy();
  }
}

// anvil-only: gives any address gas money without a transfer, so parallel test suites never
// contend for a funder's nonce.
export async function setEthBalance(rpcUrl: string, address: string, wei: bigint): Promise<void> {
  const provider = localProvider(rpcUrl);
  try {
    await provider.send('anvil_setBalance', [address, `0x${wei.toString(16)}`]);
  } finally {
    provider.destroy();
  }
}
