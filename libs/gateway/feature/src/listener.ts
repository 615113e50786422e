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
import { installEarlyHandOff } from './proxy/early-handoff';
import { EarlyRouteSpec } from './proxy/early-request';
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
  const accessLog = config.runtime.logging.level === 'debug';
  installEdgeHooks(fastify, {
    listener: spec.name,
    bodyLimit: config.bodyLimit,
    accessLog,
  });
  // The admin listener is limited too (its own policy, failed credentials per address): anything
  // that reaches the loopback port must not guess the admin key at full speed.
  const isAdmin = spec.routeSets.every((set) => set.listener === 'admin');
  const limited = installRateLimit(fastify, config.rateLimits, isAdmin ? 'admin' : 'public');
  // The metrics of every listener of this process, readable on the loopback admin listener only.
  if (isAdmin) {
    registerMetricsRoute(fastify, metrics, config.runtime.metrics);
    registerAuditRoute(fastify, config, config.admin);
    registerApiDocsRoutes(fastify, 'admin');
  }
  const early: EarlyRouteSpec[] = [];
  for (const set of spec.routeSets) {
    if (set.listener !== 'admin')
      for (const route of routesFor(set.listener, config))
        early.push({ route, host: set.hostname ? hostConstraint(set.hostname) : undefined });
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
  // Embedded mode: plain requests for the services of this process skip the gateway's Fastify pass
  // (early-handoff.ts); the limits and the access log need that pass, so they keep it.
  if (inProcess && !isAdmin && !limited && !accessLog)
    installEarlyHandOff(fastify, early, {
      service: `gateway-${spec.name}`,
      bodyLimit: config.bodyLimit,
      upstreamTimeoutMs: config.upstreamTimeoutMs,
      trustedProxies: config.trustedProxies,
      inProcess,
    });
  return app;
}
