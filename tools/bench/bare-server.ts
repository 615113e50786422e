// The P1 baseline, run as its own process by the bench: a bare Fastify server whose POST
// /orders/create does one pg INSERT on the same Postgres as the platform, and answers 201 with the
// new row's id. What an order service cannot go below on this machine; the platform's figures are
// read against it.
import { randomUUID } from 'node:crypto';

import Fastify from 'fastify';
import { Pool } from 'pg';

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 16 });
  await pool.query(`CREATE SCHEMA IF NOT EXISTS bench`);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench.orders (uuid UUID PRIMARY KEY, body JSONB NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
  );
  const app = Fastify({ logger: false });
  app.post('/orders/create', async (req, reply) => {
    const uuid = randomUUID();
    await pool.query(`INSERT INTO bench.orders (uuid, body) VALUES ($1, $2)`, [
      uuid,
      JSON.stringify(req.body),
    ]);
    return reply.code(201).send({ uuid });
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.({ type: 'ready', url: address });
  const stop = (): void =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  process.on('message', (m: { type?: string }) => m.type === 'stop' && stop());
  process.on('disconnect', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`bare server: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
