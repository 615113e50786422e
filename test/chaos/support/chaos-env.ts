function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run through jest.chaos.config.js`);
  return v;
}

export const chaosEnv = {
  controlUrl: () => need('CHAOS_CONTROL_URL'),
  baseUrl: () => need('CHAOS_BASE_URL'),
  kycUrl: () => need('CHAOS_KYC_URL'),
  adminUrl: () => need('CHAOS_ADMIN_URL'),
  adminKey: () => need('CHAOS_ADMIN_API_KEY'),
  databaseUrl: () => need('CHAOS_DATABASE_URL'),
  kafkaBrokers: () => need('CHAOS_KAFKA_BROKERS').split(','),
  rpcUrl: () => need('CHAOS_RPC_URL'),
  usdcAddress: () => need('CHAOS_USDC_ADDRESS'),
  usdcOwnerKey: () => need('CHAOS_USDC_OWNER_KEY'),
  signerAddress: () => need('CHAOS_SIGNER_ADDRESS'),
  settlementUrl: () => need('CHAOS_SETTLEMENT_URL'),
  logDir: () => need('CHAOS_LOG_DIR'),
};
