import { localProvider, TEST_USDC_ABI } from '@onramp/chain';
import { Contract, Wallet } from 'ethers';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';

import { waitFor } from './wait-for';
import { createDatabase } from './postgres';
import { loadInfraConfig } from './config';
import { InfraHandle, startInfra } from './start-infra';

// Under jest the global setup already started everything, so this checks what every other
// integration suite relies on: the env vars point at servers that work.
describe('startInfra', () => {
  let infra: InfraHandle;

  beforeAll(async () => {
    infra = await startInfra(loadInfraConfig());
  });
  afterAll(async () => infra?.stop());

  it('exports the env vars the services read', () => {
    expect(Object.keys(infra.env).sort()).toEqual(
      [
        'CHAIN_ID',
        'DATABASE_URL',
        'KAFKA_BROKERS',
        'RPC_URL',
        'SETTLEMENT_SIGNER_KEY',
        'USDC_ADDRESS',
        'USDC_OWNER_KEY',
      ].sort(),
    );
  });

  it('gives a Postgres that answers, with a fresh database per suite', async () => {
    const url = await createDatabase(infra.env['DATABASE_URL'] as string);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ one: number; db: string }>(
        'select 1 as one, current_database() as db',
      );
      expect(rows[0]).toEqual({ one: 1, db: new URL(url).pathname.slice(1) });
    } finally {
      await client.end();
    }
  });

  // The suites' server is an embedded one (its URL names a socket directory) unless the run was
  // given a DATABASE_URL of its own.
  const embedded = new URL(loadInfraConfig().databaseUrl as string).searchParams.has('host');
  (embedded ? it : it.skip)(
    'reaches an embedded Postgres over a Unix socket in its cluster directory',
    async () => {
      const url = new URL(infra.env['DATABASE_URL'] as string);
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.searchParams.get('host')).toMatch(/^\//);
      expect(await serverAddress(url.toString())).toBeNull(); // no server address: not over TCP
    },
  );

  (embedded ? it : it.skip)(
    'still answers over TCP at the URL host and port, for tools that read only those',
    async () => {
      const url = new URL(infra.env['DATABASE_URL'] as string);
      url.search = '';
      expect(await serverAddress(url.toString())).toBe('127.0.0.1/32');
    },
  );

  it('gives a Kafka that kafkajs can produce to and consume from with a consumer group', async () => {
    const kafka = new Kafka({
      clientId: 'infra-check',
      brokers: (infra.env['KAFKA_BROKERS'] as string).split(','),
      logLevel: logLevel.NOTHING,
    });
    const topic = `infra-check-${Date.now()}`;
    const admin = kafka.admin();
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    const consumer = kafka.consumer({ groupId: `${topic}-group` });
    try {
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
      await producer.connect();
      await producer.send({
        topic,
        messages: [
          { key: 'order-1', value: 'payment.confirmed' },
          { key: 'order-2', value: 'transfer.sent' },
        ],
      });

      const received: string[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void received.push(String(message.value)) });
      await waitFor(() => received.length === 2, {
        timeoutMs: 30_000,
        description: 'both messages consumed',
      });
      expect(received.sort()).toEqual(['payment.confirmed', 'transfer.sent']);
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  });

  it('gives a chain with the test USDC deployed and the hot wallet funded', async () => {
    const provider = localProvider(infra.env['RPC_URL'] as string);
    try {
      expect(Number((await provider.getNetwork()).chainId)).toBe(Number(infra.env['CHAIN_ID']));
      const usdc = new Contract(infra.env['USDC_ADDRESS'] as string, TEST_USDC_ABI, provider);
      expect(await usdc.getFunction('decimals')()).toBe(6n);
      const hotWallet = new Wallet(infra.env['SETTLEMENT_SIGNER_KEY'] as string).address;
      expect(await usdc.getFunction('balanceOf')(hotWallet)).toBeGreaterThan(0n);
    } finally {
      provider.destroy();
    }
  });
});

async function serverAddress(connectionString: string): Promise<string | null> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ addr: string | null }>('select inet_server_addr()::text as addr');
    return (rows[0] as { addr: string | null }).addr;
  } finally {
    await client.end();
  }
}
