import { Wallet } from 'ethers';

import { BenchContext, Row, waitQuiet } from '../bench-context';
import { createOrders, credit, openMerchant, webhookTimes } from '../bench-merchant';
import { RAW_SIGNER_KEY, rawSigner } from '../raw-chain';
import { sleep } from '../stats';

// P3: a burst of credits sent at once; payouts/s from the first credit to the last webhook, against
// one raw signer (local signing, every raw transaction sent at once, same chain) doing as many
// USDC transfers.
export async function probePayoutBurst(ctx: BenchContext): Promise<Row[]> {
  const count = ctx.size(500, 10);
  const merchant = await openMerchant(ctx.platform, 'Bench P3');
  ctx.log(`P3: creating ${count} orders to pay`);
  const orders = await createOrders(merchant, count);
  await waitQuiet(ctx);

  ctx.log(`P3: ${count} credits at once`);
  const t0 = Date.now();
  const failures: string[] = [];
  let sent = 0;
  const workers = Array.from({ length: 16 }, async () => {
    while (sent < orders.length) {
      const order = orders[sent++];
      await credit(ctx.platform, merchant, order.reference).catch(
        (err: Error) => void failures.push(err.message),
      );
    }
  });
  await Promise.all(workers);
  const deadline = Date.now() + ctx.size(180_000, 30_000);
  let lastReport = Date.now();
  while (webhookTimes(merchant).size < count - failures.length && Date.now() < deadline) {
    await sleep(100);
    if (Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      ctx.log(`P3: ${webhookTimes(merchant).size}/${count} webhooks in`);
    }
  }
  const times = [...webhookTimes(merchant).values()];
  const done = times.length;
  const elapsedS = (Math.max(...times, t0 + 1) - t0) / 1000;
  await waitQuiet(ctx);

  ctx.log(`P3 baseline: one raw signer, ${count} transfers`);
  const { signer, close } = await rawSigner(ctx.platform.env, RAW_SIGNER_KEY);
  let rawPerSecond: number;
  try {
    const to = Wallet.createRandom().address;
    const r0 = Date.now();
    await signer.sendAll(await signer.sign(count, to, 10_000_000n));
    rawPerSecond = count / ((Date.now() - r0) / 1000);
  } finally {
    close();
  }
  return [
    {
      probe: 'P3',
      metric: `burst of ${count}: payouts/s (1 signer)`,
      unit: '/s',
      value: done / elapsedS,
      baseline: rawPerSecond,
      baselineLabel: 'one raw signer, pipelined',
      higherIsBetter: true,
      note: done < count ? `${count - done} webhooks missing` : undefined,
    },
  ];
}
