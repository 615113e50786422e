import { decimalString, EnvOf, int, oneOf, str } from './env';

// Variables every service reads. Service-specific ones live in the service's own config file.
export const commonEnv = {
  NODE_ENV: oneOf(['development', 'test', 'production'] as const, { default: 'development' }),
  ONRAMP_MODE: oneOf(['sandbox', 'production'] as const, { default: 'sandbox' }),
  DATABASE_URL: str(),
  KAFKA_BROKERS: str({ default: '127.0.0.1:9092' }),
  KAFKA_PARTITIONS: int({ default: 12, min: 1 }),
  KAFKA_REPLICATION_FACTOR: int({ default: 1, min: 1 }),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error'] as const, { default: 'info' }),
  HOST: str({ default: '127.0.0.1' }),
  JWT_ISSUER: str({ default: 'onramp-auth' }),
  JWT_AUDIENCE: str({ default: 'onramp-api' }),
  AUTH_URL: str({ default: 'http://127.0.0.1:3010' }),
  // kafka: the distributed deployment; embedded: a durable log in Postgres, for the one-process `npm start`
  // Bearer token a Prometheus scrape of /metrics must present (unset: open in sandbox, closed in production).
  METRICS_TOKEN: str({ optional: true }),
  EVENT_TRANSPORT: oneOf(['kafka', 'embedded'] as const, { default: 'kafka' }),
};

// What every service with a database reads first: its mode, its database, its log level and the
// address it binds (spread into the service's spec, where they stood).
export const serviceEnv = {
  ONRAMP_MODE: commonEnv.ONRAMP_MODE,
  DATABASE_URL: commonEnv.DATABASE_URL,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  HOST: commonEnv.HOST,
};

// ...and what the service's config carries of them.
export function serviceBasics(env: EnvOf<typeof serviceEnv>): {
  mode: 'sandbox' | 'production';
  databaseUrl: string;
  logLevel: string;
  host: string;
} {
  return { mode: env.ONRAMP_MODE, databaseUrl: env.DATABASE_URL, logLevel: env.LOG_LEVEL, host: env.HOST };
}

// The bounds of an order's amount: orders refuses an order outside them and payment-ingest pays no
// credit outside them, whatever the policy. One definition, so the two services' defaults agree.
export const orderAmountEnv = {
  ORDER_MIN_AMOUNT: decimalString({ default: '1' }),
  ORDER_MAX_AMOUNT: decimalString({ default: '100000' }),
};

// The collection account: orders shows it to payers, payment-ingest sends returns from it. The
// account holder's name is what payer banks check against the IBAN before an instant transfer.
export const collectionAccountEnv = {
  COLLECTION_IBAN: str({ optional: true }),
  COLLECTION_BIC: str({ optional: true }),
  COLLECTION_ACCOUNT_NAME: str({ optional: true }),
};

// Internal ports of the services behind the gateway; public ports are the gateway's.
export const defaultPorts = {
  base: 3000,
  kyc: 3001,
  admin: 3002,
  auth: 3010,
  kycService: 3011,
  orders: 3012,
  paymentIngest: 3013,
  chainSettlement: 3014,
  webhookDispatch: 3015,
} as const;
