import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyInstance } from 'fastify';

import { createHttpApp } from '@onramp/http';
import { metrics, registerMetricsRoute } from '@onramp/observability';

import { registerAuditRoute } from './admin/audit-route';
import { GatewayConfig } from './config';
import { registerDashboardRoutes } from './dashboard/dashboard.routes';
import { registerApiDocsRoutes } from './docs/api-docs.routes';
import { installEdgeHooks } from './edge/edge-hooks';
import { installRateLimit } from './edge/rate-limit';
import { GatewayModule } from './gateway.module';
import { InProcessUpstreams } from './proxy/in-process-upstreams';
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
  inProcess?: InProcessUpstreams,
): Promise<NestFastifyApplication> {
  const app = await createHttpApp(GatewayModule.forRoot(config), {
    name: `gateway-${spec.name}`,
    port: 0,
    bodyLimit: config.bodyLimit,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
    trustProxy: (address) => config.trustedProxies.has(address),
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  installEdgeHooks(fastify, {
    listener: spec.name,
    bodyLimit: config.bodyLimit,
    accessLog: config.runtime.logging.level === 'debug',
  });
  // The admin listener is limited too (its own policy, failed credentials per address): anything
  // that reaches the loopback port must not guess the admin key at full speed.
  const isAdmin = spec.routeSets.every((set) => set.listener === 'admin');
  installRateLimit(fastify, config.rateLimits, isAdmin ? 'admin' : 'public');
  // The metrics of every listener of this process, readable on the loopback admin listener only.
  if (isAdmin) {
    registerMetricsRoute(fastify, metrics, config.runtime.metrics);
    registerAuditRoute(fastify, config, config.admin);
    registerApiDocsRoutes(fastify, 'admin');
  }
  for (const set of spec.routeSets) {
    await registerProxyRoutes(fastify, routesFor(set.listener, config), {
      connectTimeoutMs: config.connectTimeoutMs,
      upstreamTimeoutMs: config.upstreamTimeoutMs,
      trustedProxies: config.trustedProxies,
      hostname: set.hostname,
      admin: set.listener === 'admin' ? config.admin : undefined,
      inProcess,
    });
    if (set.listener !== 'admin') {
      const constraints = set.hostname ? { host: hostConstraint(set.hostname) } : undefined;
      registerApiDocsRoutes(fastify, set.listener, constraints);
      // The sandbox dashboard, on the base host only (it reaches KYC through /dashboard/kyc).
      if (set.listener === 'base' && config.mode === 'sandbox') {
        registerDashboardRoutes(fastify, config.dashboard, constraints);
      }
    }
  }
  return app;
}
