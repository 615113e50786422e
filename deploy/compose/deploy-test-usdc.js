'use strict';
// One-shot service of docker-compose.yml, run by the onramp image (production dependencies only, so
// the token comes precompiled: test-usdc.artifact.json, kept equal to the solc output by a unit test).
// Deploys the test USDC from a deployer that sends nothing else, so the token's address is fixed in
// advance (the deployer's first contract) and compose can hand it to chain-settlement as plain
// configuration; then mints the hot wallet's float. Idempotent: with the token already on the chain
// (anvil keeps its state in a volume) it checks and exits 0.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const { Contract, ContractFactory, getCreateAddress, JsonRpcProvider, Wallet } = require('ethers');

function env(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main() {
  const provider = new JsonRpcProvider(env('RPC_URL'), undefined, { cacheTimeout: -1, staticNetwork: true });
  try {
    const deployer = new Wallet(env('DEPLOYER_KEY'), provider);
    const expected = env('USDC_ADDRESS');
    const fundAddress = env('FUND_ADDRESS');
    const amount = BigInt(env('FUND_USDC_BASE_UNITS'));
    const predicted = getCreateAddress({ from: deployer.address, nonce: 0 });
    if (predicted.toLowerCase() !== expected.toLowerCase())
      throw new Error(`USDC_ADDRESS ${expected} is not the deployer's first contract (${predicted})`);

    if ((await provider.getCode(expected)) !== '0x') {
      console.log(`[usdc] test USDC already at ${expected}`);
      return;
    }
    if ((await provider.getTransactionCount(deployer.address, 'pending')) !== 0)
      throw new Error('the deployer already sent transactions but no token is at USDC_ADDRESS: reset the chain (docker compose down -v)');

    const { abi, bytecode } = JSON.parse(readFileSync(join(__dirname, 'test-usdc.artifact.json'), 'utf8'));
    const token = await new ContractFactory(abi, bytecode, deployer).deploy({ nonce: 0 });
    await token.waitForDeployment();
    const usdc = new Contract(expected, abi, deployer);
    const mint = await usdc.getFunction('mint')(fundAddress, amount, { nonce: 1 });
    await mint.wait();
    console.log(`[usdc] deployed test USDC at ${expected}, minted ${amount} base units to ${fundAddress}`);
  } finally {
    provider.destroy();
  }
}

main().catch((err) => {
  console.error(`[usdc] failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
