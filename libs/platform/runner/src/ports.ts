import { defaultPorts } from '@onramp/config';

export interface PlatformPorts {
  base: number;
  kyc: number;
  admin: number;
  auth: number;
  kycService: number;
  orders: number;
  paymentIngest: number;
  chainSettlement: number;
  webhookDispatch: number;
}

// Ports from the environment (BASE_PORT, KYC_PORT, ...) or docs/architecture.md's defaults; `offset` moves the
// whole set, so a test run can sit beside a running platform.
export function resolvePorts(env: NodeJS.ProcessEnv, offset = 0): PlatformPorts {
  const pick = (name: string, fallback: number): number =>
    env[name] ? Number(env[name]) : fallback + offset;
  return {
    base: pick('BASE_PORT', defaultPorts.base),
    kyc: pick('KYC_PORT', defaultPorts.kyc),
    admin: pick('ADMIN_PORT', defaultPorts.admin),
    auth: pick('AUTH_PORT', defaultPorts.auth),
    kycService: pick('KYC_SERVICE_PORT', defaultPorts.kycService),
    orders: pick('ORDERS_PORT', defaultPorts.orders),
    paymentIngest: pick('PAYMENT_INGEST_PORT', defaultPorts.paymentIngest),
    chainSettlement: pick('CHAIN_SETTLEMENT_PORT', defaultPorts.chainSettlement),
    webhookDispatch: pick('WEBHOOK_DISPATCH_PORT', defaultPorts.webhookDispatch),
  };
}

export function serviceEnv(ports: PlatformPorts): Record<string, string> {
  const url = (port: number) => `http://127.0.0.1:${port}`;
  return {
    BASE_PORT: String(ports.base),
    KYC_PORT: String(ports.kyc),
    ADMIN_PORT: String(ports.admin),
    AUTH_PORT: String(ports.auth),
    KYC_SERVICE_PORT: String(ports.kycService),
    ORDERS_PORT: String(ports.orders),
    PAYMENT_INGEST_PORT: String(ports.paymentIngest),
    CHAIN_SETTLEMENT_PORT: String(ports.chainSettlement),
    WEBHOOK_DISPATCH_PORT: String(ports.webhookDispatch),
    AUTH_URL: url(ports.auth),
    KYC_SERVICE_URL: url(ports.kycService),
    ORDERS_URL: url(ports.orders),
    PAYMENT_INGEST_URL: url(ports.paymentIngest),
    CHAIN_SETTLEMENT_URL: url(ports.chainSettlement),
    WEBHOOK_DISPATCH_URL: url(ports.webhookDispatch),
  };
}

export function platformUrls(
  ports: PlatformPorts,
  rpcUrl: string,
): { base: string; kyc: string; admin: string; rpc: string } {
  return {
    base: `http://127.0.0.1:${ports.base}`,
    kyc: `http://127.0.0.1:${ports.kyc}`,
    admin: `http://127.0.0.1:${ports.admin}`,
    rpc: rpcUrl,
  };
}
