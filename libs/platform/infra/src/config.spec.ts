import { homedir } from 'node:os';
import { join } from 'node:path';

import { loadInfraConfig } from './config';

describe('loadInfraConfig', () => {
  it('starts every server itself when the environment names none', () => {
    const config = loadInfraConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      kafkaBrokers: undefined,
      chain: { rpcUrl: undefined, anvilBin: undefined, cacheDir: undefined },
      docker: { setting: 'unset', host: 'unix:///var/run/docker.sock' },
      kafkaLibsDir: join(homedir(), '.cache', 'onramp', 'kafka'),
      kafkaVersion: '4.1.1',
    });
  });

  it('takes the existing servers and keys it is pointed at; an empty variable is not given', () => {
    const config = loadInfraConfig({
      DATABASE_URL: 'postgres://db',
      KAFKA_BROKERS: '',
      RPC_URL: 'http://node',
      USDC_ADDRESS: '0xabc',
      SETTLEMENT_SIGNER_KEY: '0x01',
      USDC_OWNER_KEY: '0x02',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://db',
      kafkaBrokers: undefined,
      chain: { rpcUrl: 'http://node' },
      usdcAddress: '0xabc',
      settlementSignerKey: '0x01',
      usdcOwnerKey: '0x02',
    });
  });

  it('reads ONRAMP_DOCKER as off (0), on (anything else) or unset, and the jar cache as the script does', () => {
    expect(loadInfraConfig({ ONRAMP_DOCKER: '0' }).docker.setting).toBe('off');
    expect(loadInfraConfig({ ONRAMP_DOCKER: '1' }).docker.setting).toBe('on');
    expect(loadInfraConfig({ ONRAMP_CACHE: '/c' }).kafkaLibsDir).toBe('/c/kafka');
    expect(loadInfraConfig({ ONRAMP_CACHE: '/c', KAFKA_LIBS_DIR: '/jars' }).kafkaLibsDir).toBe('/jars');
  });

  it('hands the local broker script the environment it was given', () => {
    const source = { PATH: '/bin', JAVA_HOME: '/jdk' };
    expect(loadInfraConfig(source).scriptEnv).toBe(source);
  });
});
