import { Server } from 'node:http';
import { connect, Socket } from 'node:net';

import { InProcessSocket } from './in-process-socket';

// What undici calls to open a connection (its `connect` option as a function).
export type UpstreamConnector = (
  target: { hostname: string; port: string; protocol: string },
  callback: (...result: [null, Socket] | [Error, null]) => void,
) => void;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const CLIENT_PORTS = { first: 49152, count: 16384 }; // labels only, as TCP's ephemeral range

// The services' HTTP servers running in this process (embedded mode), by the loopback port each
// listens on. The gateway hands such a server each public request itself (serverOn, handOff), and
// the admin listener's proxy a connection in memory instead of through a loopback socket: same
// HTTP/1 on both sides (undici's client, Node's server, their timeouts), without the socket
// syscalls. A port with no server here (a service stopped, or never in this process) is reached
// over TCP as before, so it is refused like any stopped service.
export class InProcessUpstreams {
  private readonly servers = new Map<number, { server: Server; sockets: Set<InProcessSocket> }>();
  private nextClientPort = 0;

  add(port: number, server: Server): void {
    this.remove(port);
    this.servers.set(port, { server, sockets: new Set() });
  }

  // The service is going away: new connections go over TCP (and are refused once it has closed),
  // the in-memory ones are reset, as a stopped process's would be.
  remove(port: number): void {
    const entry = this.servers.get(port);
    this.servers.delete(port);
    for (const socket of entry?.sockets ?? []) socket.destroy();
  }

  // The server of this process listening on `port`, to hand requests to (in-process-handoff.ts).
  serverOn(port: number): Server | undefined {
    return this.servers.get(port)?.server;
  }

  // The loopback port of an upstream a server of this process may be listening on.
  static portOf(upstreamUrl: string): number | undefined {
    return InProcessUpstreams.reachable(upstreamUrl) ? Number(new URL(upstreamUrl).port) || 80 : undefined;
  }

  has(port: number): boolean {
    return this.servers.has(port);
  }

  // Only plain HTTP to a loopback address can be a server of this process.
  static reachable(upstreamUrl: string): boolean {
    const url = new URL(upstreamUrl);
    return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  }

  // `connectTimeoutMs` bounds the TCP connect of the fallback (an in-memory connection is at once).
  connector(connectTimeoutMs: number): UpstreamConnector {
    return ({ hostname, port, protocol }, callback) => {
      const entry =
        protocol === 'http:' && LOOPBACK.has(hostname) ? this.servers.get(Number(port)) : undefined;
      if (!entry) return connectTcp(hostname, Number(port) || 80, connectTimeoutMs, callback);
      const { client, server } = InProcessSocket.pair(Number(port), this.clientPort());
      entry.sockets.add(server);
      server.once('close', () => entry.sockets.delete(server));
      // Asynchronous like a socket's connect: undici does not expect its callback within the call.
      process.nextTick(() => {
        entry.server.emit('connection', server);
        // undici types its sockets as net.Socket; it uses the stream and the methods InProcessSocket has.
        callback(null, client as unknown as Socket);
      });
    };
  }

  private clientPort(): number {
    this.nextClientPort = (this.nextClientPort + 1) % CLIENT_PORTS.count;
    return CLIENT_PORTS.first + this.nextClientPort;
  }
}

// The loopback connect undici would make (no delay, TCP keep-alive), bounded by the connect timeout.
function connectTcp(
  host: string,
  port: number,
  timeoutMs: number,
  callback: (...result: [null, Socket] | [Error, null]) => void,
): void {
  const socket = connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 });
  const timer = setTimeout(() => {
    socket.destroy();
    fail(
      Object.assign(new Error(`connect timeout after ${timeoutMs} ms`), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
    );
  }, timeoutMs);
  const fail = (err: Error): void => {
    clearTimeout(timer);
    socket.removeListener('connect', onConnect);
    callback(err, null);
  };
  const onConnect = (): void => {
    clearTimeout(timer);
    socket.removeListener('error', fail);
    callback(null, socket);
  };
  socket.once('connect', onConnect);
  socket.once('error', fail);
}
