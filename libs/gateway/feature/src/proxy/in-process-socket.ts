import { Duplex } from 'node:stream';

// One end of an in-memory connection: what one end writes, the other reads, with backpressure,
// FIN (end) and reset (destroy) carried across like a TCP socket's. It offers the parts of a
// net.Socket that Node's http server and undici's client use (addresses, setTimeout's idle
// timer, no-op socket options), so both run their HTTP/1 parsing and timeouts unchanged over it.
export class InProcessSocket extends Duplex {
  readonly remoteFamily = 'IPv4';
  readonly remoteAddress = '127.0.0.1';
  readonly localAddress = '127.0.0.1';
  readonly encrypted = false;
  // A connection is never "connecting": it exists once the pair does.
  readonly connecting = false;

  private peer!: InProcessSocket;
  // The peer's write waiting for this end's reader to ask for more (backpressure).
  private pendingWrite?: (err?: Error) => void;
  private finSent = false;
  private idleMs = 0;
  private idleTimer?: NodeJS.Timeout;

  private constructor(
    readonly localPort: number,
    readonly remotePort: number,
  ) {
    // As net.Socket: the end of the peer's writes ends this end's writes too (no half-open).
    super({ allowHalfOpen: false });
  }

  // The client's end and the server's end of one connection to `port` (the client's port, like a
  // TCP ephemeral port, is only a label: logs and request.socket.remotePort show it).
  static pair(port: number, clientPort: number): { client: InProcessSocket; server: InProcessSocket } {
    const client = new InProcessSocket(clientPort, port);
    const server = new InProcessSocket(port, clientPort);
    client.peer = server;
    server.peer = client;
    return { client, server };
  }

  override _read(): void {
    const resume = this.pendingWrite;
    this.pendingWrite = undefined;
    resume?.();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.touch();
    this.peer.touch();
    if (this.peer.destroyed) return callback(connectionReset());
    if (this.peer.push(chunk)) callback();
    else this.peer.pendingWrite = callback;
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.sendFin();
    callback();
  }

  // As a closed TCP socket: the other end still reads what was sent, then its end of stream; its
  // further writes fail with ECONNRESET.
  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.clearIdle();
    const waitingWrite = this.pendingWrite;
    this.pendingWrite = undefined;
    waitingWrite?.(connectionReset());
    this.sendFin();
    callback(err);
  }

  private sendFin(): void {
    if (this.finSent) return;
    this.finSent = true;
    if (!this.peer.destroyed) this.peer.push(null);
  }

  // net.Socket's idle timeout: 'timeout' after `ms` without reads or writes (the http server's
  // keep-alive timeout uses it); 0 turns it off.
  setTimeout(ms: number, onTimeout?: () => void): this {
    this.idleMs = ms;
    if (onTimeout) this.once('timeout', onTimeout);
    this.clearIdle();
    if (ms > 0) this.touch();
    return this;
  }

  destroySoon(): void {
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy()).end();
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  address(): { address: string; family: string; port: number } {
    return { address: this.localAddress, family: 'IPv4', port: this.localPort };
  }

  private touch(): void {
    if (this.idleMs <= 0 || this.destroyed) return;
    if (this.idleTimer) this.idleTimer.refresh();
    else {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = undefined;
        this.emit('timeout');
      }, this.idleMs);
      this.idleTimer.unref();
    }
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

function connectionReset(): Error {
  return Object.assign(new Error('in-process connection reset by its peer'), { code: 'ECONNRESET' });
}
