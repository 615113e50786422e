import { DynamicModule, Module } from '@nestjs/common';

import { AdminKeyGuard } from './admin-key.guard';
import { ADMIN_KEY_SOURCE, loadAdminKeySource } from './admin-key.source';

// For services whose own config does not carry ADMIN_API_KEY: read and validated at boot.
@Module({})
export class AdminKeyModule {
  static fromEnv(): DynamicModule {
    return {
      module: AdminKeyModule,
      providers: [{ provide: ADMIN_KEY_SOURCE, useFactory: () => loadAdminKeySource() }, AdminKeyGuard],
      exports: [ADMIN_KEY_SOURCE, AdminKeyGuard],
    };
  }
}
