import { parseUnits } from 'ethers';

import { AnvilHandle, startAnvil } from '@onramp/chain';
import { Topics } from '@onramp/contracts';

import { ChainSettlementTestApp, startChainSettlementTestApp } from './testing/chain-settlement-test-app';
import { SettlementHarness, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

// SETTLEMENT_FINALITY=finalized on a node that offers the tag: an anvil whose 'finalized' block trails
// the head by two blocks (one slot per epoch). A mined transfer ends its order only once the node
// calls its block finalized, whatever CHAIN_CONFIRMATIONS says.
describe("chain-settlement: finality by the node's finalized block (integration, own anvil)", () => {
  let anvil: AnvilHandle;
  let chain: TestChain;
  let h: SettlementHarness;
  let t: ChainSettlementTestApp;

  beforeAll(async () => {
    anvil = await startAnvil({ slotsInAnEpoch: 1 });
    chain = await setUpTestChain(anvil.rpcUrl);
    const hotWallet = await chain.newFundedWallet(parseUnits('1000', 6));
    h = await startSettlementHarness();
    t = await startChainSettlementTestApp({
      groupId: h.groupId,
      env: {
        ...chain.settlementEnv(hotWallet.privateKey),
        SETTLEMENT_FINALITY: 'finalized',
        CHAIN_CONFIRMATIONS: '1', // would complete at once; the finalized block decides instead
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await h?.close();
    chain?.close();
    await anvil?.stop();
  });

  it('waits for the finalized block to reach the transfer, then completes the order', async () => {
    const data = h.payment({ payedAmount: '10' });
    await h.confirm(data);
    const mined = await t.settlementIn(data.orderUuid, ['BROADCAST']);
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await t.settlement(data.orderUuid);
    expect(waiting?.state).toBe('BROADCAST'); // mined (automine), not finalized: no event yet
    expect(h.collector.forOrder(Topics.TransferSucceeded, data.orderUuid)).toHaveLength(0);
    expect(await chain.transfersTo(data.recipientAddress)).toHaveLength(1);

    await chain.provider.send('evm_mine', []);
    await chain.provider.send('evm_mine', []);
    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 30_000);
    expect(event.data.transactionHash).toBe(mined.tx_hash);
    const finalized = (await chain.provider.getBlock('finalized'))?.number ?? -1;
    const row = await t.settlement(data.orderUuid);
    expect(row?.state).toBe('CONFIRMED');
    expect(Number(row?.block_number)).toBeLessThanOrEqual(finalized);
  });
});
