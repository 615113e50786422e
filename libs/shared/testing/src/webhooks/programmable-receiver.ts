import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export type Answer = 'ok' | 'unavailable' | 'hang' | 'gone';

export interface ReceivedDelivery {
  webhookId: string; // X-Webhook-Id: the event id, stable across retries
  orderUuid: string;
  event: string;
  status: string;
  body: string; // the raw bytes as text, to compare what each delivery of one event said
  signature: string; // X-Webhook-Signature
  answered: number | 'hung';
  at: number;
  closedAt?: number; // a hung request: when the sender gave up
}

const STATUS: Record<Exclude<Answer, 'hang'>, number> = { ok: 200, unavailable: 503, gone: 410 };

// A merchant's webhook endpoint whose answer the test sets at any moment: 200, 503, 410, or no answer
// at all. It logs every request, so a test can tell a lost webhook from a redelivered one.
export class ProgrammableReceiver {
  answer: Answer = 'ok';
  readonly log: ReceivedDelivery[] = [];
  private server?: Server;
  private readonly hanging = new Set<ServerResponse>();
  private acceptedSoFar = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  // Deliveries the endpoint took (2xx): what the merchant's system acted on.
  accepted(): ReceivedDelivery[] {
    return this.log.filter((d) => d.answered === 200);
  }

  // How many accepted() holds, without filtering the log: for a caller that polls it while thousands
  // arrive (the bench), in the process that answers them.
  acceptedCount(): number {
    return this.acceptedSoFar;
  }

  // Drops what was logged so far (accepted() and acceptedCount() start again from none): for a
  // caller that sends it tens of thousands of requests it does not read back (the bench's baseline),
  // so they are not kept in the process that answers the next ones.
  forget(): void {
    this.log.length = 0;
    this.acceptedSoFar = 0;
  }

  // Ends the requests held open so far (the sender sees the connection close), e.g. before a round
  // that must not have any.
  releaseHung(): void {
    for (const res of this.hanging) res.destroy();
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      // logged with empty fields
    }
    const answer = this.answer;
    const entry: ReceivedDelivery = {
      webhookId: String(req.headers['x-webhook-id'] ?? ''),
      orderUuid: String(body.orderUuid ?? ''),
      event: String(body.event ?? ''),
      status: String(body.status ?? ''),
      body: raw,
      signature: String(req.headers['x-webhook-signature'] ?? ''),
      answered: answer === 'hang' ? 'hung' : STATUS[answer],
      at: Date.now(),
    };
    this.log.push(entry);
    if (entry.answered === 200) this.acceptedSoFar++;
    if (answer === 'hang') {
      this.hanging.add(res);
      res.on('close', () => {
        entry.closedAt = Date.now();
        this.hanging.delete(res);
      });
      return;
    }
    res.writeHead(STATUS[answer]).end();
  }
}
