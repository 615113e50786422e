import { randomUUID } from 'node:crypto';

import { Contract, parseEther, Wallet } from 'ethers';
import { Client } from 'pg';

import { deployTestUsdc, localProvider, setEthBalance, TEST_USDC_ABI } from '@onramp/chain';
import { createDatabase, loadTestEnv, testDatabaseServer } from '@onramp/testing';

import { reconcile } from './reconcile';

// The columns reconciliation reads, as the orders and chain-settlement migrations create them
// (a lib may not import apps; the chaos suite runs it against the real schemas).
const DDL = `
  CREATE SCHEMA orders;
  CREATE SCHEMA settlement;
  CREATE TABLE orders.orders (uuid UUID PRIMARY KEY, merchant_id UUID NOT NULL, status TEXT NOT NULL,
    recipient_address TEXT NOT NULL, transaction_hash TEXT, sent_token_amount NUMERIC(30,6));
  CREATE TABLE settlement.settlements (order_uuid UUID PRIMARY KEY, merchant_id UUID NOT NULL, state TEXT NOT NULL,
    tx_hash TEXT, recipient_address TEXT NOT NULL, token_base_units NUMERIC(78,0));
  CREATE TABLE settlement.signers (address TEXT PRIMARY KEY);`;

interface Paid {
  uuid: string;
  recipient: string;
  txHash: string;
}

// Real Postgres and anvil: a token and hot wallet of our own, so the logs scanned are only ours.
describe('reconcile against Postgres and the chain', () => {
  const rpcUrl = loadTestEnv().rpcUrl as string;
  const merchant = randomUUID();
  const other = randomUUID();
  const hot = Wallet.createRandom();
  let db: Client;
  let databaseUrl: string;
  let usdcAddress: string;
  let usdc: Contract;
  let fromBlock: number;
  const provider = localProvider(rpcUrl);

  beforeAll(async () => {
    databaseUrl = await createDatabase(testDatabaseServer());
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    await db.query(DDL);
    await db.query('INSERT INTO settlement.signers (address) VALUES ($1)', [hot.address]);
    const owner = Wallet.createRandom();
    await setEthBalance(rpcUrl, owner.address, parseEther('10'));
    await setEthBalance(rpcUrl, hot.address, parseEther('10'));
    usdcAddress = await deployTestUsdc(rpcUrl, owner.privateKey);
    await (
      (await new Contract(usdcAddress, TEST_USDC_ABI, owner.connect(provider)).getFunction('mint')(
        hot.address,
        1_000_000_000n,
      )) as { wait(): Promise<unknown> }
    ).wait();
    usdc = new Contract(usdcAddress, TEST_USDC_ABI, hot.connect(provider));
    fromBlock = await provider.getBlockNumber();
  });

  afterAll(async () => {
    await db?.end();
    provider.destroy();
  });

  async function pay(to: string, baseUnits: bigint): Promise<string> {
    const tx = (await usdc.getFunction('transfer')(to, baseUnits)) as {
      hash: string;
      wait(): Promise<unknown>;
    };
    await tx.wait();
    return tx.hash;
  }

  // An order with its settlement; `paid` units go on chain unless null.
  async function order(
    status: string,
    state: string,
    units: bigint,
    opts: { merchantId?: string; paid?: bigint | null; recordedHash?: string } = {},
  ): Promise<Paid> {
    const uuid = randomUUID();
    const recipient = Wallet.createRandom().address;
    const paid = opts.paid === undefined ? units : opts.paid;
    const txHash = paid === null ? `0x${'ab'.repeat(32)}` : await pay(recipient, paid);
    const hash = opts.recordedHash ?? txHash;
    const amount = `${units / 1_000_000n}.${String(units % 1_000_000n).padStart(6, '0')}`;
    await db.query(`INSERT INTO orders.orders VALUES ($1, $2, $3, $4, $5, $6)`, [
      uuid,
      opts.merchantId ?? merchant,
      status,
      recipient,
      status === 'COMPLETED' ? hash : null,
      status === 'COMPLETED' ? amount : null,
    ]);
    await db.query(`INSERT INTO settlement.settlements VALUES ($1, $2, $3, $4, $5, $6)`, [
      uuid,
      opts.merchantId ?? merchant,
      state,
      hash,
      recipient,
      units.toString(),
    ]);
    return { uuid, recipient, txHash };
  }

  const run = (merchantIds?: string[]) =>
    reconcile({ databaseUrl, rpcUrl, usdcAddress, merchantIds, fromBlock, logChunkBlocks: 7 });

  it('agrees when every COMPLETED order was paid exactly once, to its recipient, the right amount', async () => {
    await order('COMPLETED', 'CONFIRMED', 10_500_000n, { merchantId: other });
    await order('COMPLETED', 'CONFIRMED', 2_000_000n, { merchantId: other });
    await order('FAILED', 'FAILED', 3_000_000n, { merchantId: other, paid: null });
    const report = await run([other]);
    expect(report.mismatches).toEqual([]);
    expect(report).toMatchObject({ ok: true, hotWallets: [hot.address] });
    expect(report.figures).toMatchObject({
      orders: 3,
      completed: 2,
      failed: 1,
      transfersOnChain: 2,
      duplicates: 0,
      missing: 0,
    });
  });

  it('finds a second payout, a missing one, a wrong amount, a paid FAILED order and a stray transfer', async () => {
    const twice = await order('COMPLETED', 'CONFIRMED', 5_000_000n);
    await pay(twice.recipient, 5_000_000n); // re-signed after a crash, never recorded
    const missing = await order('COMPLETED', 'CONFIRMED', 4_000_000n, { paid: null });
    const short = await order('COMPLETED', 'CONFIRMED', 6_000_000n, { paid: 5_999_999n });
    const failedButPaid = await order('FAILED', 'FAILED', 7_000_000n);
    const stray = await pay(Wallet.createRandom().address, 1n);

    const report = await run([merchant]);
    const found = report.mismatches.map((m) => [m.kind, m.orderUuid ?? m.txHash]).sort();
    expect(found).toEqual(
      [
        ['duplicate-transfer', twice.uuid],
        ['completed-without-transfer', missing.uuid],
        ['wrong-amount', short.uuid],
        ['transfer-without-completed-order', failedButPaid.uuid],
        ['transfer-without-completed-order', stray],
      ].sort(),
    );
    expect(report.ok).toBe(false);
    expect(report.figures).toMatchObject({
      orders: 4,
      completed: 3,
      failed: 1,
      duplicates: 1,
      missing: 1,
      mismatches: 5,
    });

    // every merchant at once: the first test's orders are fine, so the same five
    expect((await run()).figures.mismatches).toBe(5);
  });
});
