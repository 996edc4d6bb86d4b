/**
 * A client that goes through an HTTP proxy as curl and PHP do: `CONNECT host:443`, then TLS to the named
 * host with the given authority, then one HTTP/1.1 request. Also a raw CONNECT or absolute-URI request
 * whose answer is returned as text (for refusals).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** Sends a CONNECT for `target` and resolves with the proxy's status and, when refused, its text. */
export function connectThrough(proxyUrl: string, target: string): Promise<{ status: number; text: string; socket?: import('node:net').Socket }> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: target, headers: { host: target } });
    req.on('connect', (res, socket, head: Buffer) => {
      if (res.statusCode === 200) {
        resolve({ status: 200, text: '', socket });
        return;
      }
      let text = head.toString('utf8');
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve({ status: res.statusCode ?? 0, text }));
      socket.on('error', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A request to `url` (https, a provider host) through the proxy, trusting `ca`. */
export async function fetchThrough(proxyUrl: string, ca: string, url: string, init: { method?: string; body?: unknown } = {}): Promise<ProxiedResponse> {
  const target = new URL(url);
  const tunnel = await connectThrough(proxyUrl, `${target.hostname}:${target.port || '443'}`);
  if (tunnel.status !== 200) throw new Error(`proxy refused the tunnel: ${tunnel.status} ${tunnel.text}`);
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: target.hostname,
        port: Number(target.port || 443),
        path: target.pathname + target.search,
        method: init.method ?? (payload === undefined ? 'GET' : 'POST'),
        headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        createConnection: () => tlsConnect({ socket: tunnel.socket!, servername: target.hostname, ca }),
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A plain-HTTP absolute-URI request through the proxy (`GET http://host/path`). */
export function absoluteThrough(proxyUrl: string, url: string): Promise<{ status: number; text: string }> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: proxy.hostname, port: proxy.port, method: 'GET', path: url, headers: { host: new URL(url).host } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}
