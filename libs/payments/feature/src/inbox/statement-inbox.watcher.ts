import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';

import { ProblemException } from '@onramp/http';

import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';
import { IngestBankStatementUseCase } from '../statements/ingest-bank-statement.usecase';
import { StatementInbox } from './statement-inbox';

const POLL_MS = 2000;
// The audit log names who booked a statement: here no operator, the inbox.
const INBOX_ACTOR = { operator: 'bank-statement-inbox' };

// BANK_STATEMENT_INBOX: every file dropped there goes through the same use case as the admin
// upload. A file the use case refuses (does not parse, no message id: a 4xx) moves to failed/ with
// the reason; any other error (the database is down) leaves it where it is for the next poll. Taken
// once: a crash between the booking and the move re-reads the file, which the message id and the
// bank references make a no-op, and it then moves to done/.
@Injectable()
export class StatementInboxWatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(StatementInboxWatcher.name);
  private readonly inbox?: StatementInbox;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly ingest: IngestBankStatementUseCase,
    @Inject(PAYMENT_INGEST_CONFIG) config: PaymentIngestConfig,
  ) {
    if (config.statementInbox) this.inbox = new StatementInbox(config.statementInbox);
  }

  onApplicationBootstrap(): void {
    if (!this.inbox) return;
    this.log.log(`watching ${this.inbox.dir} for bank statements`);
    this.timer = setInterval(() => {
      this.running ??= this.poll().finally(() => (this.running = undefined));
    }, POLL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  // One pass over the folder; exposed for tests.
  async poll(): Promise<void> {
    const inbox = this.inbox;
    if (!inbox) return;
    for (const path of inbox.pending()) {
      let xml: string;
      try {
        xml = inbox.read(path);
      } catch {
        continue; // moved by another replica meanwhile
      }
      try {
        const counts = await this.ingest.execute(xml, INBOX_ACTOR);
        inbox.markDone(path);
        this.log.log(
          `${path}: ${counts.messageId}, ${counts.creditsBooked} credits booked, ${counts.duplicates} duplicates`,
        );
      } catch (err) {
        if (err instanceof ProblemException && err.getStatus() < 500) {
          const reason = err.message;
          inbox.markFailed(path, reason);
          this.log.warn(`${path} moved to failed/: ${reason}`);
        } else {
          this.log.warn(`${path} not read, retried: ${err instanceof Error ? err.message : String(err)}`);
          return;
        }
      }
    }
  }
}
