import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  rawBody: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

// A merchant's webhook endpoint on loopback that records what arrives.
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(rawBody) as Record<string, unknown>;
        } catch {
          // recorded as is
        }
        this.received.push({ rawBody, headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  async waitFor(predicate: (w: ReceivedWebhook) => boolean, timeoutMs = 60_000): Promise<ReceivedWebhook> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const hit = this.received.find(predicate);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(
      `no matching webhook within ${timeoutMs} ms; got ${this.received.length}: ${this.received.map((w) => w.rawBody).join('\n')}`,
    );
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
