import {
  collectionAccountEnv,
  ConfigError,
  defaultPorts,
  int,
  loadEnv,
  orderAmountEnv,
  serviceEnv,
  str,
} from '@onramp/config';
import { serviceSecretFor } from '@onramp/auth';
import { isDevelopmentKey } from '@onramp/crypto';
import { compareDecimal } from '@onramp/money';
import { AmountBounds } from '@onramp/orders-domain';
import { CollectionAccount, parseCollectionAccounts } from '@onramp/sepa';
import { loadServiceRuntime, ServiceRuntime } from '@onramp/service-runtime';

export const ORDERS_SCHEMA = 'orders';

// The textbook example account (a public test IBAN): fine for a sandbox, refused in production, where
// end users would wire real euros to an account that is not ours.
export const TEST_COLLECTION_IBAN = 'DE89370400440532013000';
export const TEST_COLLECTION_BIC = 'COBADEFFXXX';

const ordersEnv = {
  ...serviceEnv,
  ORDERS_PORT: int({ default: defaultPorts.orders, min: 0, max: 65535 }),
  ...orderAmountEnv,
  ...collectionAccountEnv,
  // More receiving accounts, "IBAN BIC Holder name;...": each order is shown one of them.
  COLLECTION_ACCOUNTS: str({ default: '' }),
  KYC_SERVICE_URL: str({ default: `http://127.0.0.1:${defaultPorts.kycService}` }),
  // This service's own secret for service-to-service credentials (identity "orders"); the KYC
  // service lists it in SERVICE_CALLERS. Sandbox default: the published development secret.
  SERVICE_SECRET: str({ optional: true }),
};

export interface OrdersConfig {
  databaseUrl: string;
  logLevel: string;
  host: string;
  port: number;
  amountBounds: AmountBounds;
  collectionIban: string;
  collectionBic: string;
  collectionAccountName: string;
  // what payers are shown: the account above first, then COLLECTION_ACCOUNTS; each order is given one
  // (chooseCollectionAccount, by its uuid)
  collectionAccounts: (CollectionAccount & { bic: string })[];
  kycServiceUrl: string;
  serviceSecret?: string;
  // Kafka client id and consumer group (onramp-<consumerName>): "orders", except in a test that
  // needs a group of its own beside other suites on the same broker (it sets the field, not the env).
  consumerName: string;
  runtime: OrdersRuntime; // what the shared libs are given
}

// The one parser of this service's environment: main.ts calls it with process.env, the embedded runner
// and the tests with an environment of their own; everything past it takes the result.
export function loadOrdersConfig(source: NodeJS.ProcessEnv): OrdersConfig {
  const env = loadEnv(ordersEnv, source);
  const problems: string[] = [];
  const production = env.ONRAMP_MODE === 'production';
  if (production && !env.COLLECTION_IBAN) problems.push('COLLECTION_IBAN is required in production mode');
  else if (production && env.COLLECTION_IBAN === TEST_COLLECTION_IBAN)
    problems.push(
      `COLLECTION_IBAN is the public test IBAN ${TEST_COLLECTION_IBAN}: production mode needs the real collection account`,
    );
  if (production && !env.COLLECTION_BIC) problems.push('COLLECTION_BIC is required in production mode');
  const collectionIban = env.COLLECTION_IBAN || TEST_COLLECTION_IBAN;
  const collectionBic = env.COLLECTION_BIC || TEST_COLLECTION_BIC;
  // the same defaults as payment-ingest's return debtor
  const collectionAccountName = (
    env.COLLECTION_ACCOUNT_NAME || (env.COLLECTION_IBAN ? 'Onramp Collections' : 'Onramp Sandbox Collections')
  ).trim();
  if (collectionAccountName.length > 70)
    problems.push('COLLECTION_ACCOUNT_NAME must be at most 70 characters');
  if (compareDecimal(env.ORDER_MIN_AMOUNT, '0') <= 0)
    problems.push('ORDER_MIN_AMOUNT must be greater than 0');
  if (compareDecimal(env.ORDER_MIN_AMOUNT, env.ORDER_MAX_AMOUNT) > 0)
    problems.push('ORDER_MIN_AMOUNT must not exceed ORDER_MAX_AMOUNT');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(collectionIban))
    problems.push('COLLECTION_IBAN must be an IBAN without spaces');
  if (!/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(collectionBic))
    problems.push('COLLECTION_BIC must be a BIC (8 or 11 characters)');
  const collectionAccounts: (CollectionAccount & { bic: string })[] = [
    { iban: collectionIban, bic: collectionBic, name: collectionAccountName },
  ];
  try {
    for (const a of parseCollectionAccounts(env.COLLECTION_ACCOUNTS)) {
      // payment details always carry a BIC (SPEC's `bic`)
      if (!a.bic) problems.push(`COLLECTION_ACCOUNTS entry ${a.iban} needs a BIC: payers are shown it`);
      else if (collectionAccounts.some((c) => c.iban === a.iban))
        problems.push(`COLLECTION_ACCOUNTS lists ${a.iban} twice`);
      else if (production && a.iban === TEST_COLLECTION_IBAN)
        problems.push(`COLLECTION_ACCOUNTS lists the public test IBAN ${TEST_COLLECTION_IBAN}`);
      else collectionAccounts.push({ ...a, bic: a.bic });
    }
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (production && env.SERVICE_SECRET && isDevelopmentKey(env.SERVICE_SECRET))
    problems.push('SERVICE_SECRET must not be a public development key in production');
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return {
    databaseUrl: env.DATABASE_URL,
    logLevel: env.LOG_LEVEL,
    host: env.HOST,
    port: env.ORDERS_PORT,
    amountBounds: { min: env.ORDER_MIN_AMOUNT, max: env.ORDER_MAX_AMOUNT },
    collectionIban,
    collectionBic,
    collectionAccountName,
    collectionAccounts,
    kycServiceUrl: env.KYC_SERVICE_URL.replace(/\/+$/, ''),
    serviceSecret: serviceSecretFor(env.ONRAMP_MODE, env.SERVICE_SECRET),
    consumerName: 'orders',
    runtime: loadOrdersRuntime(source),
  };
}

export const ORDERS_CONFIG = Symbol('ORDERS_CONFIG');

export type OrdersRuntime = ServiceRuntime;

// What this service gives the shared libs, which never read the environment themselves.
export function loadOrdersRuntime(source: NodeJS.ProcessEnv): ServiceRuntime {
  return loadServiceRuntime(source);
}
