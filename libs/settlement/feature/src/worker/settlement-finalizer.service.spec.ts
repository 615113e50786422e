import { EntityManager } from 'typeorm';

import { OutboxWriter } from '@onramp/messaging';

import { ChainReceipt } from '../chain/chain.client';
import { ChainSettlementConfig } from '../config';
import { SettlementTransactionEntity } from '../settlements/settlement-transaction.entity';
import { SettlementEntity } from '../settlements/settlement.entity';
import { SettlementFinalizer } from './settlement-finalizer.service';

describe('SettlementFinalizer', () => {
  it("publishes transfer.* in the trace stored on the settlement (the payment's), not a new one", async () => {
    // the events go into the outbox in the statement that records the outcomes: what it is given
    const appended: { traceparent?: string; type: string }[] = [];
    const outbox = {
      table: '"settlement"."outbox"',
      prepare: (event: { traceparent?: string; type: string }) => {
        appended.push(event);
        return { values: ['id', event.type, 'o', '{}', '{}'] };
      },
    } as unknown as OutboxWriter;
    // the statement writes one event per settlement it moved
    const manager = { query: () => Promise.resolve([{ key: 'o' }]) } as unknown as EntityManager;
    const finalizer = new SettlementFinalizer(outbox, { chainId: 31337 } as ChainSettlementConfig);
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const s = {
      orderUuid: 'o',
      merchantId: 'm',
      payedAmount: '10.00',
      tokenAmount: '10.692',
      fxRateBase: '1.08',
      fxRateEffective: '1.0692',
      fxRateUpdatedAt: new Date(),
      recipientAddress: '0x00000000000000000000000000000000000000aa',
      payerAccountHolderName: 'Jane Doe',
      traceparent,
    } as SettlementEntity;
    const mined = { txHash: '0xabc', rawTx: '0x01' } as SettlementTransactionEntity;
    const receipt = { blockNumber: 7 } as ChainReceipt;

    await finalizer.finalize(manager, s, 'CONFIRMED', receipt, mined);
    await finalizer.finalize(manager, s, 'FAILED', receipt, mined);
    expect(appended.map((e) => [e.type, e.traceparent])).toEqual([
      ['transfer.succeeded', traceparent],
      ['transfer.failed', traceparent],
    ]);
  });
});
