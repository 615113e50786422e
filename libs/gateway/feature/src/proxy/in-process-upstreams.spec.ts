import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

import { InProcessUpstreams } from './in-process-upstreams';

const REQUEST = 'GET /ping HTTP/1.1\r\nHost: upstream\r\n\r\n';

describe('InProcessUpstreams', () => {
  let server: Server;
  let port: number;
  const upstreams = new InProcessUpstreams();
  const connect = (timeoutMs = 1000) =>
    new Promise<Socket>((resolve, reject) =>
      upstreams.connector(timeoutMs)(
        { hostname: '127.0.0.1', port: String(port), protocol: 'http:' },
        (err, socket) => (err ? reject(err) : resolve(socket!)),
      ),
    );
  const readUntil = (socket: Socket, text: string) =>
    new Promise<string>((resolve) => {
      let got = '';
      const onData = (chunk: Buffer) => {
        got += chunk.toString();
        if (got.includes(text)) {
          socket.off('data', onData);
          resolve(got);
        }
      };
      socket.on('data', onData);
    });
  // Read to the end (as undici does), then the close.
  const closed = (socket: Socket) =>
    new Promise<void>((resolve) => socket.resume().once('close', () => resolve()));

  beforeEach(async () => {
    server = createServer((req, res) => {
      res.setHeader('x-transport', req.socket instanceof Socket ? 'tcp' : 'in-memory');
      res.end(`pong from ${req.socket.remoteAddress}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    upstreams.add(port, server);
  });

  afterEach(async () => {
    upstreams.remove(port);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('hands a connection to the registered server in memory, HTTP/1 keep-alive included', async () => {
    const socket = await connect();
    for (let i = 0; i < 2; i++) {
      socket.write(REQUEST);
      const response = await readUntil(socket, 'pong from 127.0.0.1');
      expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(response).toContain('x-transport: in-memory');
      expect(response).toContain('Connection: keep-alive');
    }
    socket.destroy();
  });

  it('closes an idle connection at the server keep-alive timeout, as over TCP', async () => {
    server.keepAliveTimeout = 50;
    const socket = await connect();
    socket.write(REQUEST);
    await readUntil(socket, 'pong');
    await closed(socket);
  });

  it('resets its in-memory connections when the server is removed, then reaches the port over TCP', async () => {
    const socket = await connect();
    const gone = closed(socket);
    upstreams.remove(port);
    await gone;
    const tcp = await connect();
    expect(tcp).toBeInstanceOf(Socket);
    tcp.write(REQUEST);
    expect(await readUntil(tcp, 'pong')).toContain('x-transport: tcp');
    tcp.destroy();
  });

  it('reports a refused TCP connect when nothing is registered or listening', async () => {
    upstreams.remove(port);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await expect(connect()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  it('reaches only plain HTTP on a loopback address in process', () => {
    expect(InProcessUpstreams.reachable('http://127.0.0.1:3012')).toBe(true);
    expect(InProcessUpstreams.reachable('http://localhost:3012')).toBe(true);
    expect(InProcessUpstreams.reachable('https://127.0.0.1:3012')).toBe(false);
    expect(InProcessUpstreams.reachable('http://orders.onramp.svc:3012')).toBe(false);
  });
});
