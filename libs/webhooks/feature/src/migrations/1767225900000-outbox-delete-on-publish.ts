import { outboxDeleteOnPublishMigration } from '@onramp/persistence';

// The relay deletes the outbox rows it published instead of marking them (cheaper for Postgres: no
// new row version, no index entry); see outboxDeleteOnPublishSql.
export const OutboxDeleteOnPublish1767225900000 = outboxDeleteOnPublishMigration(
  'OutboxDeleteOnPublish1767225900000',
  'webhooks',
);
