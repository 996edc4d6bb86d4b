/**
 * A merchant's webhook endpoint for tests: a real HTTP server on port 0 that records every delivery and
 * answers what the test asks. Signatures are checked here with `jose` and an independent CRC-32 (zlib),
 * never with the sandbox's own signing code.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { crc32 } from 'node:zlib';
import { jwtVerify } from 'jose';

export interface Delivery {
  headers: IncomingHttpHeaders;
  /** The raw body, as received. */
  text: string;
  body: any;
  path: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  deliveries: Delivery[];
  /** Sets how the next deliveries are answered: a status, or a function of the delivery. */
  answer(fn: number | ((d: Delivery, index: number) => number | Promise<number>)): void;
  /** Resolves once `count` deliveries (matching `filter`) arrived. */
  waitFor(count: number, filter?: (d: Delivery) => boolean, ms?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  let answer: number | ((d: Delivery, index: number) => number | Promise<number>) = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const delivery: Delivery = { headers: req.headers, text, body, path: req.url ?? '/', at: Date.now() };
      const index = deliveries.push(delivery) - 1;
      const status = typeof answer === 'number' ? answer : await answer(delivery, index);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'thanks' : 'no thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${actual}/webhooks`,
    port: actual,
    deliveries,
    answer(fn) {
      answer = fn;
    },
    async waitFor(count, filter = () => true, ms = 10_000) {
      const end = Date.now() + ms;
      for (;;) {
        const found = deliveries.filter(filter);
        if (found.length >= count) return found;
        if (Date.now() > end) throw new Error(`expected ${count} deliveries, got ${found.length}: ${JSON.stringify(deliveries.map((d) => d.body?.Type))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The crc32 claim computed independently: CRC-32 of the raw bytes, little-endian, base64url. */
export function expectedCrcClaim(text: string): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(crc32(Buffer.from(text, 'utf8')) >>> 0);
  return bytes.toString('base64url');
}

/**
 * Verifies a delivery as a merchant must: HS256 JWT with the secret, then the crc32 claim against the raw
 * body. Answers the claims, or throws.
 */
export async function verifyDelivery(d: Delivery, secret: string, header = 'x-payvision-signature'): Promise<Record<string, unknown>> {
  const token = d.headers[header];
  if (typeof token !== 'string') throw new Error(`no ${header} header`);
  const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
  if (protectedHeader.alg !== 'HS256') throw new Error('not HS256');
  if (payload.crc32 !== expectedCrcClaim(d.text)) throw new Error(`crc32 claim ${String(payload.crc32)} does not match the body`);
  return payload as Record<string, unknown>;
}

/** Answers 200 to well-signed deliveries and 401 to the rest: a merchant's correct handler. */
export function verifyingAnswer(secret: string, header?: string) {
  return async (d: Delivery) => {
    try {
      await verifyDelivery(d, secret, header);
      return 200;
    } catch {
      return 401;
    }
  };
}
