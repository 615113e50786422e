function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run through jest.e2e.config.js`);
  return v;
}

export const e2e = {
  baseUrl: () => need('E2E_BASE_URL'),
  kycUrl: () => need('E2E_KYC_URL'),
  adminUrl: () => need('E2E_ADMIN_URL'),
  rpcUrl: () => need('E2E_RPC_URL'),
  usdcAddress: () => need('E2E_USDC_ADDRESS'),
  usdcOwnerKey: () => need('E2E_USDC_OWNER_KEY'),
  adminKey: () => need('E2E_ADMIN_API_KEY'),
  tokenTtlSeconds: () => Number(need('E2E_TOKEN_TTL_SECONDS')),
  databaseUrl: () => need('E2E_DATABASE_URL'),
  kafkaBrokers: () => need('E2E_KAFKA_BROKERS'), // distributed mode only
  mode: () => need('E2E_MODE') as 'distributed' | 'embedded',
};
