import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The process as `npm start` and the image run it: sandbox on Arbitrum One must not even boot.
describe('chain-settlement main', () => {
  it('exits 1 in sandbox mode with CHAIN_ID=42161, saying why', () => {
    const root = join(__dirname, '..', '..', '..');
    const res = spawnSync(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'main.ts')], {
      cwd: root,
      env: {
        PATH: process.env['PATH'],
        SWC_NODE_PROJECT: join(root, 'tsconfig.json'),
        ONRAMP_MODE: 'sandbox',
        CHAIN_ID: '42161',
        DATABASE_URL: 'postgres://127.0.0.1:1/never-reached',
        USDC_ADDRESS: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
        SETTLEMENT_SIGNER_KEY: '0x' + 'ab'.repeat(32),
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(1);
    expect(res.stdout + res.stderr).toContain(
      'CHAIN_ID 42161 is Arbitrum One, a network with real money: ONRAMP_MODE=sandbox accepts fake bank credits',
    );
  }, 90_000);
});
