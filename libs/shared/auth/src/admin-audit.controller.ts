import { Controller, Get, Query, Type, UseGuards } from '@nestjs/common';
import { IsISO8601 } from 'class-validator';
import { DataSource } from 'typeorm';

import { OptionalField, PaginationQuery } from '@onramp/http';
import { AdminAuditRecord, listAdminActions } from '@onramp/persistence';

import { AdminGuard } from './admin.guard';

export class AdminAuditQuery extends PaginationQuery {
  @OptionalField()
  @IsISO8601({ strict: true }, { message: 'before must be an ISO 8601 time' })
  before?: string;
}

// GET /admin/audit-log of one service: its records, newest first. The gateway's GET /admin/audit
// merges every service's (admin listener, `read` scope).
export function adminAuditController(schema: string, service: string): Type<unknown> {
  @Controller('admin/audit-log')
  @UseGuards(AdminGuard)
  class AdminAuditController {
    constructor(readonly dataSource: DataSource) {}

    @Get()
    list(@Query() query: AdminAuditQuery): Promise<AdminAuditRecord[]> {
      return listAdminActions(this.dataSource, schema, service, { limit: query.limit, before: query.before });
    }
  }
  return AdminAuditController;
}
