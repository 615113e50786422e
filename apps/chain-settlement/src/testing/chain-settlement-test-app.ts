import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';

import { createDatabase, startServiceTestApp } from '@onramp/testing';

import { AppModule } from '../app.module';
import { SETTLEMENT_SCHEMA } from '../config';

export interface ChainSettlementTestApp {
  app: NestFastifyApplication;
  dataSource: DataSource;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface StartOptions {
  env: Record<string, string>; // RPC_URL, CHAIN_ID, USDC_ADDRESS, SETTLEMENT_SIGNER_KEY, ...
  groupId: string; // the consumer group, unique to the suite (see startGroupAtEnd)
  databaseUrl?: string; // reuse a database: a restart of the same service
}

export async function freshDatabase(): Promise<string> {
  const server = process.env['DATABASE_URL'];
  if (!server) throw new Error('DATABASE_URL is not set: run with jest.integration.config.js');
  return createDatabase(server, `settlement_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`);
}

// The real app module (consumer, worker, chain client) with only its consumer group swapped for
// the suite's own. Environment variables are set for the boot and restored afterwards.
export async function startChainSettlementTestApp(opts: StartOptions): Promise<ChainSettlementTestApp> {
  const databaseUrl = opts.databaseUrl ?? (await freshDatabase());
  const env: Record<string, string> = { ...opts.env, DATABASE_URL: databaseUrl };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const app = await startServiceTestApp(AppModule, { schema: SETTLEMENT_SCHEMA, groupId: opts.groupId });
    return { app, dataSource: app.get(DataSource), databaseUrl, close: () => app.close() };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
