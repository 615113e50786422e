import {
  ChainTransfer,
  Comparison,
  LedgerOrder,
  LedgerSettlement,
  LedgerSnapshot,
  Mismatch,
  ReconcileFigures,
} from './ledger.types';

const lc = (s: string): string => s.toLowerCase();
const IN_FLIGHT = new Set(['PENDING', 'HELD', 'SIGNED', 'BROADCAST']);

interface Linked {
  transfer: ChainTransfer;
  byHash: boolean; // false: attributed by recipient and amount only (a payout nobody recorded)
}

// Pure: compares one snapshot of the books with the USDC transfers found on chain. `inScope` limits
// the orders looked at (say, one merchant's); a transfer that pays an out-of-scope order is ignored,
// one that pays no known order is always reported.
export function compareLedgers(
  snapshot: LedgerSnapshot,
  transfers: ChainTransfer[],
  inScope: (order: Pick<LedgerOrder, 'merchantId'>) => boolean = () => true,
): Comparison {
  const orders = new Map(snapshot.orders.map((o) => [o.uuid, o]));
  const settlements = new Map(snapshot.settlements.map((s) => [s.orderUuid, s]));
  const ownerByHash = new Map<string, string>();
  for (const o of snapshot.orders) if (o.transactionHash) ownerByHash.set(lc(o.transactionHash), o.uuid);
  // the settlement's hash wins: it is what was signed and broadcast
  for (const s of snapshot.settlements) {
    for (const h of [...s.replacedTxHashes, ...(s.txHash ? [s.txHash] : [])])
      ownerByHash.set(lc(h), s.orderUuid);
  }

  const mismatches: Mismatch[] = [];
  const linked = new Map<string, Linked[]>();
  let transfersOnChain = 0;
  for (const t of dedupe(transfers)) {
    const owner = ownerByHash.get(lc(t.txHash));
    const byHash = owner !== undefined;
    const orderUuid = owner ?? attributeByPayment(snapshot.orders, settlements, t);
    const order = orderUuid ? orders.get(orderUuid) : undefined;
    const scoped = order ?? (orderUuid ? settlementAsOrder(settlements.get(orderUuid)) : undefined);
    if (scoped && !inScope(scoped)) continue;
    transfersOnChain++;
    if (!orderUuid) {
      mismatches.push({
        kind: 'transfer-without-completed-order',
        txHash: t.txHash,
        detail: `${describe(t)} matches no settlement or order`,
      });
      continue;
    }
    linked.set(orderUuid, [...(linked.get(orderUuid) ?? []), { transfer: t, byHash }]);
  }

  const figures: ReconcileFigures = {
    orders: 0,
    completed: 0,
    failed: 0,
    nonTerminal: 0,
    settlements: 0,
    settlementsInFlight: 0,
    transfersOnChain,
    duplicates: 0,
    missing: 0,
    mismatches: 0,
  };
  for (const order of snapshot.orders) {
    if (!inScope(order)) continue;
    figures.orders++;
    if (order.status === 'COMPLETED') figures.completed++;
    else if (order.status === 'FAILED') figures.failed++;
    else figures.nonTerminal++;
    const paid = linked.get(order.uuid) ?? [];
    const settlement = settlements.get(order.uuid);
    if (order.status !== 'COMPLETED') {
      for (const { transfer } of paid) {
        mismatches.push({
          kind: 'transfer-without-completed-order',
          orderUuid: order.uuid,
          txHash: transfer.txHash,
          detail: `${describe(transfer)} pays an order that is ${order.status}`,
        });
      }
      continue;
    }
    checkCompleted(order, settlement, paid, figures, mismatches);
  }

  for (const s of snapshot.settlements) {
    if (!inScope(s)) continue;
    figures.settlements++;
    if (IN_FLIGHT.has(s.state)) figures.settlementsInFlight++;
    const order = orders.get(s.orderUuid);
    if (s.state === 'CONFIRMED' && order?.status !== 'COMPLETED') {
      mismatches.push({
        kind: 'confirmed-but-order-not-completed',
        orderUuid: s.orderUuid,
        txHash: s.txHash ?? undefined,
        detail: order
          ? `settlement CONFIRMED but the order is ${order.status}`
          : 'settlement CONFIRMED but no such order exists',
      });
    }
  }
  figures.mismatches = mismatches.length;
  return { figures, mismatches };
}

function checkCompleted(
  order: LedgerOrder,
  settlement: LedgerSettlement | undefined,
  paid: Linked[],
  figures: ReconcileFigures,
  mismatches: Mismatch[],
): void {
  if (paid.length === 0) {
    figures.missing++;
    mismatches.push({
      kind: 'completed-without-transfer',
      orderUuid: order.uuid,
      txHash: order.transactionHash ?? undefined,
      detail: `order COMPLETED with ${order.transactionHash ?? 'no transaction hash'} but no USDC transfer on chain`,
    });
    return;
  }
  if (paid.length > 1) {
    figures.duplicates += paid.length - 1;
    mismatches.push({
      kind: 'duplicate-transfer',
      orderUuid: order.uuid,
      detail: `${paid.length} transfers pay this order: ${paid.map((p) => p.transfer.txHash).join(', ')}`,
    });
  }
  if (settlement?.txHash && order.transactionHash && lc(settlement.txHash) !== lc(order.transactionHash)) {
    mismatches.push({
      kind: 'tx-hash-differs',
      orderUuid: order.uuid,
      txHash: order.transactionHash,
      detail: `order records ${order.transactionHash}, settlement ${settlement.txHash}`,
    });
  }
  // the transfer the books name is checked; any other one is already reported as a duplicate
  const named = [order.transactionHash, settlement?.txHash].filter((h): h is string => Boolean(h)).map(lc);
  const primary = (
    paid.find((p) => named.includes(lc(p.transfer.txHash))) ??
    paid.find((p) => p.byHash) ??
    paid[0]
  ).transfer;
  if (lc(primary.to) !== lc(order.recipientAddress)) {
    mismatches.push({
      kind: 'wrong-recipient',
      orderUuid: order.uuid,
      txHash: primary.txHash,
      detail: `paid ${primary.to}, the order's recipient is ${order.recipientAddress}`,
    });
  }
  const expected = settlement?.tokenBaseUnits ?? order.sentTokenBaseUnits;
  if (expected !== null && primary.value !== expected) {
    mismatches.push({
      kind: 'wrong-amount',
      orderUuid: order.uuid,
      txHash: primary.txHash,
      detail: `paid ${primary.value} base units, expected ${expected}`,
    });
  }
}

// A transfer no record points at but that pays an order's recipient exactly its amount: most
// likely a second payout of that order (re-signed after a crash), so it is counted against it.
function attributeByPayment(
  orders: LedgerOrder[],
  settlements: Map<string, LedgerSettlement>,
  t: ChainTransfer,
): string | undefined {
  return orders.find((o) => {
    if (lc(o.recipientAddress) !== lc(t.to)) return false;
    const expected = settlements.get(o.uuid)?.tokenBaseUnits ?? o.sentTokenBaseUnits;
    return expected === t.value;
  })?.uuid;
}

function settlementAsOrder(s: LedgerSettlement | undefined): Pick<LedgerOrder, 'merchantId'> | undefined {
  return s ? { merchantId: s.merchantId } : undefined;
}

function dedupe(transfers: ChainTransfer[]): ChainTransfer[] {
  const seen = new Map<string, ChainTransfer>();
  for (const t of transfers) seen.set(`${lc(t.txHash)}:${t.logIndex}`, t);
  return [...seen.values()].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

function describe(t: ChainTransfer): string {
  return `transfer ${t.txHash} (block ${t.blockNumber}) of ${t.value} base units from ${t.from} to ${t.to}`;
}
