import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { getCreateAddress, Wallet } from 'ethers';
import { parse } from 'yaml';

import { ANVIL_DEPLOYER_KEY, compileTestUsdc } from '@onramp/chain';
import { REAL_MONEY_CHAINS } from '@onramp/config';
import { ALL_TOPICS } from '@onramp/contracts';

// The deployment files repeat a few facts of the code (they cannot import it): these keep them equal.
const root = join(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

// Where a service's config parser lives once it is a library (libs/<service>/feature).
const CONFIG_FILES: Record<string, string> = {
  auth: 'libs/auth/feature/src/config.ts',
  gateway: 'libs/gateway/feature/src/config.ts',
  kyc: 'libs/kyc/feature/src/config.ts',
  orders: 'libs/orders/feature/src/config.ts',
  'payment-ingest': 'libs/payments/feature/src/config.ts',
  'chain-settlement': 'libs/settlement/feature/src/config.ts',
  'webhook-dispatch': 'libs/webhooks/feature/src/config.ts',
};

function helperBlock(name: string): string {
  const helpers = read('helm/onramp/templates/_helpers.tpl');
  const m = new RegExp(`{{- define "${name}" -}}\\n([\\s\\S]*?)\\n{{- end -}}`).exec(helpers);
  if (!m?.[1]) throw new Error(`no ${name} in _helpers.tpl`);
  return m[1];
}

describe('Helm chart', () => {
  it('refuses in sandbox exactly the chain ids the apps call real money', () => {
    const chart = parse(helperBlock('onramp.realMoneyChains')) as Record<string, string>;
    expect(chart).toEqual(Object.fromEntries(Object.entries(REAL_MONEY_CHAINS).map(([id, n]) => [id, n])));
  });

  it('provisions every event topic with Strimzi (the kafka-topics command adds the same .dlq)', () => {
    const m = /\$topics := list ((?:"[^"]+" ?)+)/.exec(read('helm/onramp/templates/kafkatopics.yaml'));
    const topics = (m?.[1] ?? '').match(/"([^"]+)"/g)?.map((t) => t.slice(1, -1));
    expect([...(topics ?? [])].sort()).toEqual([...ALL_TOPICS].sort());
  });

  it('lets apps.<app>.env set only variables the app reads', () => {
    const schema = JSON.parse(read('helm/onramp/values.schema.json')) as {
      properties: {
        apps: { properties: Record<string, { properties: { env: { propertyNames: { enum: string[] } } } }> };
      };
    };
    const sources: Record<string, string[]> = {
      gateway: [CONFIG_FILES['gateway']!],
      auth: [CONFIG_FILES['auth']!],
      kyc: [CONFIG_FILES['kyc']!],
      orders: [CONFIG_FILES['orders']!],
      'payment-ingest': [CONFIG_FILES['payment-ingest']!],
      'chain-settlement': [CONFIG_FILES['chain-settlement']!],
      'webhook-dispatch': [CONFIG_FILES['webhook-dispatch']!],
    };
    for (const [app, spec] of Object.entries(schema.properties.apps.properties)) {
      const text = [...(sources[app] ?? []), 'libs/shared/config/src/common-env.ts'].map(read).join('\n');
      for (const variable of spec.properties.env.propertyNames.enum) {
        expect({ app, variable, read: new RegExp(`\\b${variable}: `).test(text) }).toEqual({
          app,
          variable,
          read: true,
        });
      }
    }
  });
});

// Variables the chart sets itself (wiring, chain and Kafka values, Secrets) or deliberately does not
// offer (host routing: the Ingress uses one port per host; test-only and sandbox demo settings).
const NOT_IN_ENV = new Set([
  'NODE_ENV',
  'ONRAMP_MODE',
  'DATABASE_URL',
  'LOG_LEVEL',
  'HOST',
  'JWT_ISSUER',
  'JWT_AUDIENCE',
  'AUTH_URL',
  'KYC_SERVICE_URL',
  'ORDERS_URL',
  'PAYMENT_INGEST_URL',
  'CHAIN_SETTLEMENT_URL',
  'WEBHOOK_DISPATCH_URL',
  'GATEWAY_HOST',
  'BASE_PORT',
  'KYC_PORT',
  'ADMIN_PORT',
  'AUTH_PORT',
  'KYC_SERVICE_PORT',
  'ORDERS_PORT',
  'PAYMENT_INGEST_PORT',
  'CHAIN_SETTLEMENT_PORT',
  'WEBHOOK_DISPATCH_PORT',
  'RPC_URL',
  'CHAIN_ID',
  'USDC_ADDRESS',
  'SETTLEMENT_SIGNER_KEY',
  'SETTLEMENT_SIGNER_KEYS', // key material: from the signer Secret, like SETTLEMENT_SIGNER_KEY
  'SETTLEMENT_SIGNER_ADDRESS', // from the signer Secret, per pod (address-N), with a remote signer
  'SETTLEMENT_SIGNER_AUTHORIZATION', // a secret: chain-settlement's Secret
  'CHAIN_CONFIRMATIONS',
  'SANDBOX_TESTNET',
  'ADMIN_API_KEY',
  'AUTH_KEY_ENCRYPTION_KEY',
  'KYC_ENCRYPTION_KEY',
  'WEBHOOK_SECRET_ENCRYPTION_KEY',
  'GATEWAY_HOST_ROUTING',
  'BASE_HOSTNAME',
  'KYC_HOSTNAME',
  'DEMO_MERCHANT_ID',
  'DEMO_MERCHANT_SECRET',
  'SERVICE_SECRET', // a secret: wired by secretKeys from the app's Secret
  'OPERATOR_KEYS', // the gateway's Secret
  'KYC_PREVIOUS_ENCRYPTION_KEYS', // a secret: kyc's Secret
  'AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS', // a secret: auth's Secret
  'PAYER_DATA_ENCRYPTION_KEY', // a secret: the Secrets of the apps that share the payer-data ring
  'PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS',
  'WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS', // webhook-dispatch's Secret, during a rotation
]);

describe('Helm chart values for every app variable', () => {
  it('offers each variable an app reads, in apps.<app>.env or as a chart value', () => {
    const schema = JSON.parse(read('helm/onramp/values.schema.json')) as {
      properties: {
        apps: { properties: Record<string, { properties: { env: { propertyNames: { enum: string[] } } } }> };
      };
    };
    for (const [app, spec] of Object.entries(schema.properties.apps.properties)) {
      const declared = [
        ...read(CONFIG_FILES[app] ?? `apps/${app}/src/config.ts`).matchAll(
          /\b([A-Z][A-Z0-9_]{3,}): (?:str|int|bool|oneOf|decimalString|commonEnv|port|address|secretKeys?)\b/g,
        ),
      ].map((m) => m[1]!);
      const offered = new Set(spec.properties.env.propertyNames.enum);
      const missing = declared.filter((v) => !offered.has(v) && !NOT_IN_ENV.has(v));
      expect({ app, missing }).toEqual({ app, missing: [] });
    }
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { environment: Record<string, string> }>;
  };
  const usdc = compose.services['usdc']!.environment;
  const settlement = compose.services['chain-settlement']!.environment;

  it('ships the test USDC exactly as solc compiles it', () => {
    const artifact = JSON.parse(read('deploy/compose/test-usdc.artifact.json')) as {
      abi: unknown;
      bytecode: string;
    };
    const compiled = compileTestUsdc();
    expect(artifact.bytecode).toBe(compiled.bytecode);
    expect(artifact.abi).toEqual(compiled.abi);
  });

  it("gives chain-settlement the deployer's first contract and funds its hot wallet", () => {
    expect(usdc['DEPLOYER_KEY']).toBe(ANVIL_DEPLOYER_KEY);
    const first = getCreateAddress({ from: new Wallet(ANVIL_DEPLOYER_KEY).address, nonce: 0 });
    expect(usdc['USDC_ADDRESS']).toBe(first);
    expect(settlement['USDC_ADDRESS']).toBe(first);
    expect(new Wallet(settlement['SETTLEMENT_SIGNER_KEY']!).address).toBe(usdc['FUND_ADDRESS']);
  });
});
