import { DynamicModule, Logger } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { bool, commonEnv, int, loadEnv } from '@onramp/config';

import { ensureSchema, serviceDataSourceOptions, ServiceDataSourceOptions } from './data-source';
import { withMigrationLock } from './migration-lock';
import { waitForSchema } from './service-migrations';

// Sandbox and `npm start` migrate at boot (under the migration lock); production waits for the
// separate `migrate` step instead. DB_MIGRATE_AT_BOOT overrides either default.
export function migrationBootPolicy(source: NodeJS.ProcessEnv = process.env): {
  migrateAtBoot: boolean;
  schemaWaitMs: number;
} {
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
export function dbPoolSize(source: NodeJS.ProcessEnv = process.env): number {
  return loadEnv({ DB_POOL_SIZE: int({ default: 10, min: 1, max: 500 }) }, source).DB_POOL_SIZE;
}

// The service's one DataSource: its own schema, never synchronize.
export function typeOrmRootFor(opts: () => ServiceDataSourceOptions): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => {
      const o = opts();
      return serviceDataSourceOptions({ ...o, poolSize: o.poolSize ?? dbPoolSize() });
    },
    dataSourceFactory: async (options) => {
      const o = opts();
      const policy = migrationBootPolicy();
      const log = new Logger(`migrations:${o.schema}`);
      if (!policy.migrateAtBoot) {
        const ds = await new DataSource(options!).initialize();
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
