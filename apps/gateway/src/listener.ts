import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyInstance } from 'fastify';

import { createHttpApp } from '@onramp/http';

import { GatewayConfig } from './config';
import { registerApiDocsRoutes } from './docs/api-docs.routes';
import { installEdgeHooks } from './edge/edge-hooks';
import { installRateLimit } from './edge/rate-limit';
import { GatewayModule } from './gateway.module';
import { hostConstraint, registerProxyRoutes } from './proxy/proxy-routes';
import { ListenerName, routesFor } from './routes';

export interface ListenerSpec {
  name: string;
  // Route sets served here; with a hostname, only for requests whose Host header matches it.
  routeSets: { listener: ListenerName; hostname?: string }[];
}

// One Nest application on its own Fastify instance per listener, so each port has its own route table.
export async function createListener(
  spec: ListenerSpec,
  config: GatewayConfig,
): Promise<NestFastifyApplication> {
  const app = await createHttpApp(GatewayModule, {
    name: `gateway-${spec.name}`,
    port: 0,
    bodyLimit: config.bodyLimit,
    logLevel: config.logLevel,
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  installEdgeHooks(fastify, { listener: spec.name, bodyLimit: config.bodyLimit });
  // The admin listener is loopback-only and operator-driven: no limit there.
  if (spec.routeSets.some((set) => set.listener !== 'admin')) installRateLimit(fastify, config.rateLimits);
  for (const set of spec.routeSets) {
    await registerProxyRoutes(fastify, routesFor(set.listener, config), {
      connectTimeoutMs: config.connectTimeoutMs,
      upstreamTimeoutMs: config.upstreamTimeoutMs,
      trustForwarded: config.trustForwarded,
      hostname: set.hostname,
    });
    if (set.listener !== 'admin') {
      const constraints = set.hostname ? { host: hostConstraint(set.hostname) } : undefined;
      registerApiDocsRoutes(fastify, set.listener, constraints);
    }
  }
  return app;
}
