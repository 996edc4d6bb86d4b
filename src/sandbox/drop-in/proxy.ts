/**
 * Proxy mode (`paylink sandbox --proxy <port>`, docs/drop-in.md): an HTTP proxy on 127.0.0.1 that answers
 * the provider's hosts itself and refuses everything else. A `CONNECT` to a provider host is accepted and
 * the tunnel is served, over TLS with a certificate from paylink's local authority, by the sandbox's own
 * app; an absolute-URI request for a provider host is served in the clear. Any other target is refused at
 * once with a 403 naming what was refused and why.
 *
 * Offline by construction: this module never resolves a name nor opens a connection (it imports neither
 * `node:dns` nor a client of `node:net`/`node:tls`); a tunnel's socket is handed to an in-process TLS server
 * that never listens.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { PROVIDER_HOSTS, providerHost } from '../domain/provider-hosts.js';
import type { ProviderRequests } from './provider-requests.js';

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface ProxyOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** The certificate (with its chain) and key served for the provider hosts. */
  tls: { cert: string; key: string };
  /** The sandbox app's listener. */
  listener: NodeListener;
  /** The sandbox's provider requests: the proxy's listeners answer as the provider through them. */
  provider: ProviderRequests;
  /** Told of each refused target (the request log's observer, a test's count). */
  onRefused?: (target: string, method: string) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`: the value of `https_proxy`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Why a target is refused, as the client reads it. */
export function refusalText(target: string): string {
  const names = PROVIDER_HOSTS.map((h) => h.name).join(', ');
  return (
    `paylink proxy refused ${target}: it serves only the payment provider's hosts (${names}) from the local sandbox, ` +
    `and never connects anywhere else. Send other traffic around it (no_proxy), or unset https_proxy for this process.\n`
  );
}

/** Starts the proxy listener. */
export function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const secure = createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, options.provider.listener(options.listener, true));
  const plain = options.provider.listener(options.listener, false);
  const refuse = (target: string, method: string): string => {
    options.onRefused?.(target, method);
    return refusalText(target);
  };

  const server = createHttpServer((req, res) => {
    const raw = req.url ?? '/';
    let hostHeader: string | undefined;
    if (/^https?:\/\//i.test(raw)) {
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        url = undefined;
      }
      if (url === undefined || providerHost(url.host) === undefined) {
        const text = refuse(url?.host ?? raw, req.method ?? 'GET');
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-paylink-proxy': 'refused' }).end(text);
        return;
      }
      hostHeader = url.host;
      req.url = `${url.pathname}${url.search}`;
      req.headers.host = hostHeader;
    } else if (providerHost(req.headers.host) === undefined) {
      const text = refuse(req.headers.host ?? raw, req.method ?? 'GET');
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-paylink-proxy': 'refused' }).end(text);
      return;
    }
    plain(req, res);
  });

  const tunnels = new Set<Duplex>();
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    const target = req.url ?? '';
    const port = /:(\d+)$/.exec(target)?.[1];
    if (providerHost(target) === undefined || (port !== undefined && port !== '443')) {
      const text = refuse(target, 'CONNECT');
      socket.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\nx-paylink-proxy: refused\r\n` +
          `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
      );
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\nproxy-agent: paylink\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    secure.emit('connection', socket);
  });
  server.on('clientError', (_error, socket: Duplex) => socket.destroy());

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      const port = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            for (const socket of tunnels) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
