import { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { ensureSchema, serviceDataSourceOptions, ServiceDataSourceOptions } from './data-source';

// The service's one DataSource: its own schema, migrations run at boot, never synchronize.
export function typeOrmRootFor(opts: () => ServiceDataSourceOptions): DynamicModule {
  return TypeOrmModule.forRootAsync({
    useFactory: () => ({ ...serviceDataSourceOptions(opts()), migrationsRun: true }),
    dataSourceFactory: async (options) => {
      const o = opts();
      await ensureSchema(o.url, o.schema);
      return new DataSource(options!).initialize();
    },
  });
}
