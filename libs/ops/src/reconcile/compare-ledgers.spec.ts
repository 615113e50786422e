import { compareLedgers } from './compare-ledgers';
import { ChainTransfer, LedgerOrder, LedgerSettlement, LedgerSnapshot } from './ledger.types';

const HOT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const M1 = '00000000-0000-4000-8000-000000000001';
const M2 = '00000000-0000-4000-8000-000000000002';
const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const addr = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

function order(n: number, status: string, over: Partial<LedgerOrder> = {}): LedgerOrder {
  return {
    uuid: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`,
    merchantId: M1,
    status,
    recipientAddress: addr(n),
    transactionHash: status === 'COMPLETED' ? hash(n) : null,
    sentTokenBaseUnits: status === 'COMPLETED' ? BigInt(n) * 1_000_000n : null,
    ...over,
  };
}

function settlement(o: LedgerOrder, state: string, over: Partial<LedgerSettlement> = {}): LedgerSettlement {
  const n = Number(o.uuid.slice(-12));
  return {
    orderUuid: o.uuid,
    merchantId: o.merchantId,
    state,
    txHash: hash(n),
    replacedTxHashes: [],
    recipientAddress: o.recipientAddress,
    tokenBaseUnits: BigInt(n) * 1_000_000n,
    ...over,
  };
}

function transfer(n: number, over: Partial<ChainTransfer> = {}): ChainTransfer {
  return {
    txHash: hash(n),
    logIndex: 0,
    blockNumber: n,
    from: HOT,
    to: addr(n),
    value: BigInt(n) * 1_000_000n,
    ...over,
  };
}

const snapshot = (orders: LedgerOrder[], settlements: LedgerSettlement[]): LedgerSnapshot => ({
  orders,
  settlements,
  hotWallets: [HOT],
});

describe('compareLedgers', () => {
  it('finds nothing wrong when every COMPLETED order has exactly its transfer', () => {
    const done = [order(1, 'COMPLETED'), order(2, 'COMPLETED')];
    const failed = order(3, 'FAILED');
    const open = order(4, 'CREATED');
    const result = compareLedgers(
      snapshot(
        [...done, failed, open],
        [settlement(done[0], 'CONFIRMED'), settlement(done[1], 'CONFIRMED'), settlement(failed, 'FAILED')],
      ),
      [transfer(1), transfer(2), transfer(1)], // the same log found twice (receipt and scan)
    );
    expect(result.mismatches).toEqual([]);
    expect(result.figures).toEqual({
      orders: 4,
      completed: 2,
      failed: 1,
      nonTerminal: 1,
      settlements: 3,
      settlementsInFlight: 0,
      transfersOnChain: 2,
      duplicates: 0,
      missing: 0,
      mismatches: 0,
    });
  });

  it('reports a transfer paying no order, and one paying a FAILED order', () => {
    const failed = order(3, 'FAILED');
    const result = compareLedgers(snapshot([failed], [settlement(failed, 'FAILED')]), [
      transfer(3),
      transfer(9),
    ]);
    expect(result.mismatches.map((m) => [m.kind, m.orderUuid])).toEqual([
      ['transfer-without-completed-order', undefined],
      ['transfer-without-completed-order', failed.uuid],
    ]);
    expect(result.figures.transfersOnChain).toBe(2);
  });

  it('reports a COMPLETED order without a transfer as missing', () => {
    const done = order(1, 'COMPLETED');
    const result = compareLedgers(snapshot([done], [settlement(done, 'CONFIRMED')]), []);
    expect(result.figures).toMatchObject({ missing: 1, mismatches: 1 });
    expect(result.mismatches[0]).toMatchObject({ kind: 'completed-without-transfer', orderUuid: done.uuid });
  });

  it('counts a second payout nobody recorded (same recipient and amount) as a duplicate', () => {
    const done = order(1, 'COMPLETED');
    const result = compareLedgers(snapshot([done], [settlement(done, 'CONFIRMED')]), [
      transfer(1),
      transfer(1, { txHash: hash(101), blockNumber: 5 }),
    ]);
    expect(result.figures).toMatchObject({ duplicates: 1, transfersOnChain: 2 });
    expect(result.mismatches.map((m) => m.kind)).toEqual(['duplicate-transfer']);
  });

  it('links a transfer to its order through any transaction signed for the settlement', () => {
    const done = order(1, 'COMPLETED');
    const replaced = hash(201);
    const result = compareLedgers(
      snapshot([done], [settlement(done, 'CONFIRMED', { replacedTxHashes: [replaced] })]),
      [transfer(1, { txHash: replaced, to: addr(99) }), transfer(1)],
    );
    // not an unknown transfer: both are the order's, so a duplicate (the wrong recipient is on the replaced one)
    expect(result.mismatches.map((m) => m.kind)).toEqual(['duplicate-transfer']);
  });

  it('reports a wrong amount, a wrong recipient and differing hashes', () => {
    const a = order(1, 'COMPLETED');
    const b = order(2, 'COMPLETED', { transactionHash: hash(77) });
    const result = compareLedgers(
      snapshot([a, b], [settlement(a, 'CONFIRMED'), settlement(b, 'CONFIRMED')]),
      [transfer(1, { value: 5n }), transfer(2, { to: addr(66) })],
    );
    expect(result.mismatches.map((m) => m.kind).sort()).toEqual([
      'tx-hash-differs',
      'wrong-amount',
      'wrong-recipient',
    ]);
  });

  it('reports a CONFIRMED settlement whose order is not COMPLETED', () => {
    const open = order(1, 'CREATED');
    const result = compareLedgers(snapshot([open], [settlement(open, 'CONFIRMED')]), [transfer(1)]);
    expect(result.mismatches.map((m) => m.kind).sort()).toEqual([
      'confirmed-but-order-not-completed',
      'transfer-without-completed-order',
    ]);
  });

  it('limits orders, settlements and their transfers to the scope, but never hides an unknown transfer', () => {
    const mine = order(1, 'COMPLETED');
    const theirs = order(2, 'COMPLETED', { merchantId: M2 });
    const result = compareLedgers(
      snapshot(
        [mine, theirs],
        [settlement(mine, 'CONFIRMED'), settlement(theirs, 'SIGNED', { merchantId: M2 })],
      ),
      [transfer(1), transfer(9)],
      (o) => o.merchantId === M1,
    );
    expect(result.figures).toMatchObject({
      orders: 1,
      completed: 1,
      settlements: 1,
      transfersOnChain: 2,
      mismatches: 1,
    });
    expect(result.mismatches[0]).toMatchObject({ kind: 'transfer-without-completed-order', txHash: hash(9) });
  });
});
