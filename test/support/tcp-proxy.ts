import { createServer, Socket } from 'node:net';
import { listenOnLoopback } from './fake-http-server';

/**
 * A TCP proxy on 127.0.0.1 (random port) in front of a server, for tests that cut connections the
 * way a restarting or unreachable database does: `cut()` destroys every proxied socket pair
 * (closed, or reset with an RST), `refuse()` stops listening (connects fail with ECONNREFUSED) until
 * `accept()` listens on the same port again.
 */
export class TcpProxy {
  private readonly pairs = new Set<[Socket, Socket]>();
  private readonly server = createServer((client) => this.pipe(client));
  private listenPort = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    proxy.listenPort = await listenOnLoopback(proxy.server);
    return proxy;
  }

  get port(): number {
    return this.listenPort;
  }

  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  /** Destroys every open connection at once, both sides, as a server that dies does; returns how many. */
  cut(how: 'close' | 'reset' = 'close'): number {
    const n = this.pairs.size;
    for (const [client, upstream] of this.pairs) {
      if (how === 'reset') client.resetAndDestroy();
      else client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    return n;
  }

  /** The local ports of the proxy's open connections to the server: pg_stat_activity's client_port of its sessions. */
  upstreamPorts(): number[] {
    return [...this.pairs].map(([, upstream]) => upstream.localPort).filter((p): p is number => p !== undefined);
  }

  refuse(): void {
    if (this.server.listening) this.server.close();
  }

  async accept(): Promise<void> {
    if (!this.server.listening) await listenOnLoopback(this.server, this.port);
  }

  close(): void {
    this.refuse();
    this.cut();
  }

  private pipe(client: Socket): void {
    const upstream = new Socket();
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const drop = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.connect(this.target.port, this.target.host, () => {
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }
}
