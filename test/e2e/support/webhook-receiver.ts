import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  rawBody: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

// A merchant's webhook endpoint on loopback that records what arrives: plain http (sandbox), or https
// with a certificate of the test's own (production demands https; see selfSignedCertificate).
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server?: Server;

  async start(tls?: { key: string; cert: string }): Promise<string> {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
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
    };
    this.server = tls ? createHttpsServer(tls, handler) : createServer(handler);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `${tls ? 'https' : 'http'}://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
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
