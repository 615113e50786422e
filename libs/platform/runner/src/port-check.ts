import { createServer } from 'node:net';

import { PlatformPorts } from './ports';

// What each port is for, named as the variable that moves it.
const PORT_NAMES: Record<keyof PlatformPorts, string> = {
  base: 'BASE_PORT, gateway',
  kyc: 'KYC_PORT, gateway',
  admin: 'ADMIN_PORT, gateway',
  auth: 'AUTH_PORT, auth',
  kycService: 'KYC_SERVICE_PORT, kyc',
  orders: 'ORDERS_PORT, orders',
  paymentIngest: 'PAYMENT_INGEST_PORT, payment-ingest',
  chainSettlement: 'CHAIN_SETTLEMENT_PORT, chain-settlement',
  webhookDispatch: 'WEBHOOK_DISPATCH_PORT, webhook-dispatch',
};

// An app finds its port taken only after its database and migrations, a minute in under load:
// check every port the platform will listen on before starting anything, and say which one.
export async function assertPortsFree(ports: PlatformPorts): Promise<void> {
  const taken: string[] = [];
  for (const key of Object.keys(PORT_NAMES) as Array<keyof PlatformPorts>) {
    const problem = await portProblem(ports[key]);
    if (problem)
      taken.push(`${ports[key]} (${PORT_NAMES[key]})${problem === 'EADDRINUSE' ? '' : `: ${problem}`}`);
  }
  if (taken.length === 0) return;
  throw new Error(
    `port${taken.length > 1 ? 's' : ''} already in use (EADDRINUSE): ${taken.join('; ')}. ` +
      'Another npm start? Stop it, or move every port with ONRAMP_PORT_OFFSET=<n> (or one with its variable).',
  );
}

// undefined when 127.0.0.1:port can be bound, else the reason (EADDRINUSE, EACCES...).
export function portProblem(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}
