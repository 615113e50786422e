import 'reflect-metadata';

import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { GatewayConfig } from './config';
import { createListener, ListenerSpec } from './listener';
import { InProcessUpstreams } from './proxy/in-process-upstreams';

export interface RunningGateway {
  listeners: Record<string, NestFastifyApplication>;
  close(): Promise<void>;
}

// Loopback only, whatever GATEWAY_HOST says: the admin API is for operators on the machine (or a
// port-forward), never for the network.
export const ADMIN_BIND_HOST = '127.0.0.1';

function listenerPlan(config: GatewayConfig): { spec: ListenerSpec; port: number; host: string }[] {
  const admin = {
    spec: { name: 'admin', routeSets: [{ listener: 'admin' as const }] },
    port: config.ports.admin,
    host: ADMIN_BIND_HOST,
  };
  if (config.hostRouting) {
    const { baseHostname, kycHostname } = config.hostRouting;
    const routeSets = [
      { listener: 'base' as const, hostname: baseHostname },
      { listener: 'kyc' as const, hostname: kycHostname },
    ];
    return [{ spec: { name: 'public', routeSets }, port: config.ports.base, host: config.host }, admin];
  }
  return [
    { spec: { name: 'base', routeSets: [{ listener: 'base' }] }, port: config.ports.base, host: config.host },
    { spec: { name: 'kyc', routeSets: [{ listener: 'kyc' }] }, port: config.ports.kyc, host: config.host },
    admin,
  ];
}

export interface GatewayStartOptions {
  // Embedded mode: the services' servers in this process, reached without a loopback socket.
  inProcessUpstreams?: InProcessUpstreams;
}

// The service listening on its ports: main.ts runs it as a process, the embedded runner beside the
// others in one; both parse the config first (loadGatewayConfig) and pass it here.
export async function startGateway(
  config: GatewayConfig,
  opts: GatewayStartOptions = {},
): Promise<RunningGateway> {
  const log = new Logger('gateway');
  const listeners: Record<string, NestFastifyApplication> = {};
  const close = async (): Promise<void> => {
    await Promise.allSettled(Object.values(listeners).map((app) => app.close()));
  };
  try {
    for (const { spec, port, host } of listenerPlan(config)) {
      const app = await createListener(spec, config, opts.inProcessUpstreams);
      listeners[spec.name] = app;
      await app.listen(port, host);
      log.log(`${spec.name} listener on ${host}:${port}`);
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { listeners, close };
}
