import { randomUUID } from 'node:crypto';

import { Wallet } from 'ethers';
import { Pool } from 'pg';

import { ProgrammableReceiver } from '@onramp/testing';

import { FLOOR_SIGNER_KEY, rawSigner } from './raw-chain';
import { summarize, Summary } from './stats';

// The least a credit -> webhook round can cost on these servers: one pg INSERT, one USDC transfer
// signed locally and mined, one HTTP POST, back to back. P2's latencies are read against it.
export async function measureFloor(db: Pool, env: Record<string, string>, rounds: number): Promise<Summary> {
  await db.query(`CREATE SCHEMA IF NOT EXISTS bench`);
  await db.query(
    `CREATE TABLE IF NOT EXISTS bench.floor (id UUID PRIMARY KEY, at TIMESTAMPTZ NOT NULL DEFAULT now())`,
  );
  const receiver = new ProgrammableReceiver();
  const url = await receiver.start();
  const { signer, close } = await rawSigner(env, FLOOR_SIGNER_KEY);
  const to = Wallet.createRandom().address;
  const samples: number[] = [];
  try {
    // A round whose transfer anvil's pool held back (replaced after a second) timed anvil's race,
    // not the floor: it is run again, a bounded number of times.
    for (let redo = 0; samples.length < rounds;) {
      const t0 = performance.now();
      await db.query(`INSERT INTO bench.floor (id) VALUES ($1)`, [randomUUID()]);
      const { replaced } = await signer.sendAll(await signer.sign(1, to, 1n));
      const res = await fetch(url, { method: 'POST', body: JSON.stringify({ orderUuid: randomUUID() }) });
      await res.arrayBuffer();
      if (replaced === 0 || ++redo > rounds) samples.push(performance.now() - t0);
    }
  } finally {
    close();
    await receiver.stop();
  }
  return summarize(samples);
}
