import { DynamicModule, Logger } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { bool, commonEnv, int, loadEnv } from '@onramp/config';

import { ensureSchema, serviceDataSourceOptions, ServiceDataSourceOptions } from './data-source';
import { withMigrationLock } from './migration-lock';
import { beginTransactionsWithFirstStatement } from './begin-with-first-statement';
import { guardPoolConnections } from './pool-client-guard';
import { watchPoolUse } from './pool-metrics';
import { waitForSchema } from './service-migrations';

// Sandbox and `npm start` migrate at boot (under the migration lock); production waits for the
// separate `migrate` step instead. DB_MIGRATE_AT_BOOT overrides either default.
export interface MigrationBootPolicy {
  migrateAtBoot: boolean;
  schemaWaitMs: number;
}

export function migrationBootPolicy(source: NodeJS.ProcessEnv): MigrationBootPolicy {
  const env = loadEnv(
    {
      ONRAMP_MODE: commonEnv.ONRAMP_MODE,
      DB_MIGRATE_AT_BOOT: bool({ default: source['ONRAMP_MODE'] !== 'production' }),
      DB_SCHEMA_WAIT_SECONDS: int({ default: 300, min: 0 }),
    },
    source,
  );
  return { migrateAtBoot: env.DB_MIGRATE_AT_BOOT, schemaWaitMs: env.DB_SCHEMA_WAIT_SECONDS * 1000 };
}

// Connections one process may hold in its pool: a deployment sizes it per app so that every
// replica's pool together stays under the server's max_connections (the Helm chart's budget).
export function dbPoolSize(source: NodeJS.ProcessEnv): number {
  return loadEnv({ DB_POOL_SIZE: int({ default: 10, min: 1, max: 500 }) }, source).DB_POOL_SIZE;
}

// Whether repeated statements are prepared on each connection (prepared-statements.ts). Off only
// behind a pooler that cannot keep a session's prepared statements (PgBouncer in transaction mode
// before 1.21).
export function dbPreparedStatements(source: NodeJS.ProcessEnv): boolean {
  return loadEnv({ DB_PREPARED_STATEMENTS: bool({ default: true }) }, source).DB_PREPARED_STATEMENTS;
}

// How a service process reaches its database, beyond the URL: what an app's config parses from
// DB_POOL_SIZE, DB_PREPARED_STATEMENTS, DB_MIGRATE_AT_BOOT and DB_SCHEMA_WAIT_SECONDS (the parsers above).
export interface DatabaseRuntimeConfig {
  poolSize: number;
  preparedStatements: boolean;
  boot: MigrationBootPolicy;
}

export function loadDatabaseRuntimeConfig(source: NodeJS.ProcessEnv): DatabaseRuntimeConfig {
  return {
    poolSize: dbPoolSize(source),
    preparedStatements: dbPreparedStatements(source),
    boot: migrationBootPolicy(source),
  };
}

export type ServiceDatabaseConfig = ServiceDataSourceOptions & DatabaseRuntimeConfig;

// The service's one DataSource: its own schema, never synchronize.
export function typeOrmRootFor(config: ServiceDatabaseConfig): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => serviceDataSourceOptions(config),
    dataSourceFactory: async (options) => {
      const o = config;
      const policy = o.boot;
      const log = new Logger(`migrations:${o.schema}`);
      const db = new Logger(`database:${o.schema}`);
      if (!policy.migrateAtBoot) {
        const ds = await new DataSource(options!).initialize();
        guardPoolConnections(ds, db);
        watchPoolUse(ds, o.schema);
        beginTransactionsWithFirstStatement(ds);
        try {
          await waitForSchema(ds, o.schema, { timeoutMs: policy.schemaWaitMs, log: (m) => log.warn(m) });
        } catch (err) {
          await ds.destroy().catch(() => undefined);
          throw err;
        }
        return ds;
      }
      return withMigrationLock(
        o.url,
        async () => {
          await ensureSchema(o.url, o.schema);
          const ds = await new DataSource(options!).initialize();
          guardPoolConnections(ds, db);
          watchPoolUse(ds, o.schema);
          beginTransactionsWithFirstStatement(ds);
          try {
            await ds.runMigrations({ transaction: 'each' });
          } catch (err) {
            await ds.destroy().catch(() => undefined);
            throw err;
          }
          return ds;
        },
        { log: (m) => log.log(m) },
      );
    },
  });
}
