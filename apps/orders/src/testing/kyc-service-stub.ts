import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { KycStatus } from '@onramp/contracts';

// Stands in for the KYC service's internal lookup (another service, over real HTTP) so orders'
// read-your-write path can be tested without importing the KYC app.
export class KycServiceStub {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly users: Map<string, { merchantId: string; status: KycStatus }>,
    readonly requests: string[],
  ) {}

  static async start(): Promise<KycServiceStub> {
    const users = new Map<string, { merchantId: string; status: KycStatus }>();
    const requests: string[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://stub');
      requests.push(url.pathname + url.search);
      const m = /^\/internal\/kyc-users\/([^/]+)$/.exec(url.pathname);
      const user = m ? users.get(m[1]) : undefined;
      if (!m || !user || user.merchantId !== url.searchParams.get('merchantId')) {
        res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ uuid: m[1], status: user.status }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new KycServiceStub(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      users,
      requests,
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
