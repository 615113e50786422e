import { loadKafkaClientConfig, loadKafkaTopicSettings } from './kafka-client-config';

const files: Record<string, string> = {
  '/etc/kafka/ca.pem': 'CA-PEM',
  '/etc/kafka/client.pem': 'CERT-PEM',
  '/etc/kafka/client.key': 'KEY-PEM',
};
const readFile = (path: string): string => {
  const content = files[path];
  if (content === undefined) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return content;
};
const load = (env: NodeJS.ProcessEnv) => loadKafkaClientConfig(env, readFile);

describe('loadKafkaClientConfig', () => {
  it('defaults to plaintext without SASL, brokers split and trimmed', () => {
    expect(load({ KAFKA_BROKERS: 'a:9092, b:9092' })).toEqual({ brokers: ['a:9092', 'b:9092'] });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)(
    'maps SASL %s with TLS on the system CAs',
    (mechanism) => {
      expect(
        load({
          KAFKA_BROKERS: 'k:9093',
          KAFKA_SASL_MECHANISM: mechanism,
          KAFKA_SASL_USERNAME: 'onramp',
          KAFKA_SASL_PASSWORD: 'pw',
          KAFKA_SSL: 'true',
        }),
      ).toEqual({ brokers: ['k:9093'], ssl: true, sasl: { mechanism, username: 'onramp', password: 'pw' } });
    },
  );

  it('reads the CA and the client certificate and key from files', () => {
    expect(
      load({
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: '/etc/kafka/ca.pem',
        KAFKA_SSL_CERT_FILE: '/etc/kafka/client.pem',
        KAFKA_SSL_KEY_FILE: '/etc/kafka/client.key',
      }).ssl,
    ).toEqual({ ca: ['CA-PEM'], cert: 'CERT-PEM', key: 'KEY-PEM' });
    expect(load({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/etc/kafka/ca.pem' }).ssl).toEqual({
      ca: ['CA-PEM'],
    });
  });

  it('names the variable of every inconsistency', () => {
    expect(() => load({ KAFKA_SASL_MECHANISM: 'scram-sha-512' })).toThrow(
      /KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM=scram-sha-512.*KAFKA_SASL_PASSWORD is required/,
    );
    expect(() => load({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(/KAFKA_SASL_MECHANISM must be one of/);
    expect(() => load({ KAFKA_SASL_USERNAME: 'u' })).toThrow(/KAFKA_SASL_MECHANISM is not/);
    expect(() => load({ KAFKA_SSL_CA_FILE: '/etc/kafka/ca.pem' })).toThrow(/need KAFKA_SSL=true/);
    expect(() => load({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/etc/kafka/client.pem' })).toThrow(
      /KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE must be set together/,
    );
    expect(() => load({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/missing.pem' })).toThrow(
      'KAFKA_SSL_CA_FILE cannot be read: ENOENT /missing.pem',
    );
    expect(() => load({ KAFKA_SSL: 'maybe' })).toThrow(/KAFKA_SSL must be a boolean/);
  });

  it('refuses SASL over plaintext in production, and never echoes the password', () => {
    let message = '';
    try {
      load({
        ONRAMP_MODE: 'production',
        KAFKA_SASL_MECHANISM: 'plain',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: 'hunter2',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('KAFKA_SASL_MECHANISM needs KAFKA_SSL=true in production mode');
    expect(message).not.toContain('hunter2');
  });
});

describe('loadKafkaTopicSettings', () => {
  it('creates topics itself in sandbox, not in production, unless KAFKA_CREATE_TOPICS says otherwise', () => {
    expect(loadKafkaTopicSettings({})).toEqual({
      partitions: 12,
      replicationFactor: 1,
      createTopics: true,
      topicsWaitMs: 300_000,
    });
    expect(loadKafkaTopicSettings({ ONRAMP_MODE: 'production' }).createTopics).toBe(false);
    expect(
      loadKafkaTopicSettings({ ONRAMP_MODE: 'production', KAFKA_CREATE_TOPICS: 'true' }).createTopics,
    ).toBe(true);
    expect(loadKafkaTopicSettings({ KAFKA_CREATE_TOPICS: 'false' }).createTopics).toBe(false);
    expect(loadKafkaTopicSettings({ KAFKA_PARTITIONS: '24', KAFKA_REPLICATION_FACTOR: '3' })).toMatchObject({
      partitions: 24,
      replicationFactor: 3,
    });
  });
});
