import { IncomingHttpHeaders, createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string; // the raw bytes as UTF-8, exactly as received
  at: number;
}

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  hang?: boolean; // never answer (the dispatcher's timeout must cut it)
}

export type Responder = (req: ReceivedRequest, nth: number) => ScriptedResponse;

// A merchant's endpoint on 127.0.0.1: records every request per path and answers as scripted
// (200 unless told otherwise). Each test uses its own path so tests do not see each other.
export class WebhookReceiver {
  private server?: Server;
  private base = '';
  private readonly received = new Map<string, ReceivedRequest[]>();
  private readonly responders = new Map<string, Responder>();
  private readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0];
        const entry: ReceivedRequest = {
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const list = [...(this.received.get(path) ?? []), entry];
        this.received.set(path, list);
        const responder: Responder = this.responders.get(path) ?? (() => ({ status: 200 }));
        const answer = responder(entry, list.length);
        const now = (this.inFlight.get(path) ?? 0) + 1;
        this.inFlight.set(path, now);
        this.maxInFlight.set(path, Math.max(now, this.maxInFlight.get(path) ?? 0));
        res.on('close', () => this.inFlight.set(path, (this.inFlight.get(path) ?? 1) - 1));
        if (answer.hang) return;
        res.writeHead(answer.status, answer.headers).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  respond(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  requests(path: string): ReceivedRequest[] {
    return this.received.get(path) ?? [];
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
