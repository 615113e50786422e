import { commonEnv, defaultPorts, int, loadEnv } from '@onramp/config';

export const PAYMENTS_SCHEMA = 'payments';

const paymentIngestEnv = {
  ONRAMP_MODE: commonEnv.ONRAMP_MODE,
  DATABASE_URL: commonEnv.DATABASE_URL,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  HOST: commonEnv.HOST,
  PAYMENT_INGEST_PORT: int({ default: defaultPorts.paymentIngest, min: 0, max: 65535 }),
};

export interface PaymentIngestConfig {
  mode: 'sandbox' | 'production';
  databaseUrl: string;
  logLevel: string;
  host: string;
  port: number;
}

export const PAYMENT_INGEST_CONFIG = Symbol('PAYMENT_INGEST_CONFIG');

export function loadPaymentIngestConfig(source: NodeJS.ProcessEnv = process.env): PaymentIngestConfig {
  const env = loadEnv(paymentIngestEnv, source);
  return {
    mode: env.ONRAMP_MODE,
    databaseUrl: env.DATABASE_URL,
    logLevel: env.LOG_LEVEL,
    host: env.HOST,
    port: env.PAYMENT_INGEST_PORT,
  };
}
