import { loadTestEnv } from './test-env';

describe('loadTestEnv', () => {
  it('reads the servers the global setup exported', () => {
    expect(
      loadTestEnv({
        DATABASE_URL: 'postgres://pg/postgres',
        KAFKA_BROKERS: '127.0.0.1:1,127.0.0.1:2',
        KAFKA_PARTITIONS: '3',
        RPC_URL: 'http://127.0.0.1:8545',
      }),
    ).toEqual({
      databaseServer: 'postgres://pg/postgres',
      kafkaBrokers: ['127.0.0.1:1', '127.0.0.1:2'],
      kafkaPartitions: 3,
      rpcUrl: 'http://127.0.0.1:8545',
    });
  });

  it('defaults the broker and the partitions as the helpers always did', () => {
    expect(loadTestEnv({})).toEqual({
      databaseServer: undefined,
      kafkaBrokers: ['127.0.0.1:9092'],
      kafkaPartitions: 12,
      rpcUrl: undefined,
    });
  });
});
