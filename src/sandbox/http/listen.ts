/**
 * The sandbox's HTTP listener. Plain HTTP is node:http itself; HTTPS goes through listhen, imported only
 * then (with its certificate handling, consola and node-forge it costs about a quarter of a plain start's
 * CPU, docs/benchmarks.md "Start-up").
 *
 * The plain listener keeps what listhen did for it: a taken port is an error (`EADDRINUSE`), never a move to
 * another port; port 0 picks a free one; `close()` stops accepting, ends idle keep-alive connections at once
 * and the busy ones as soon as their answer is written, and resolves when every connection is gone. Unlike
 * listhen it adds no listener per request (that cost about 3% of a GET's CPU).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

export interface SandboxListener {
  server: Server;
  /** The served certificate (PEM) of an HTTPS listener. */
  https?: { cert: string } | false | undefined;
  close(): Promise<void>;
}

export interface ListenOptions {
  port: number;
  hostname: string;
  /** A certificate and key (PEM or file paths), or `false` for plain HTTP. */
  https: { cert: string; key: string } | false;
  public: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export async function listen(handler: Handler, options: ListenOptions): Promise<SandboxListener> {
  if (options.https !== false) return listenHttps(handler, options);
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error): void => reject(error);
    server.once('error', failed);
    server.listen(options.port, options.hostname, () => {
      server.off('error', failed);
      resolve();
    });
  });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) {
        // Node's name for the answer a connection is writing (as in index.ts's answerUnreadable).
        const busy = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
        if (busy) busy.once('finish', () => socket.destroy());
        else socket.destroy();
      }
    });
    return closed;
  };
  return { server, https: false, close };
}

async function listenHttps(handler: Handler, options: ListenOptions): Promise<SandboxListener> {
  // listhen's CommonJS build, required when HTTPS is asked for: an import() would keep the sandbox's chunk of
  // the bundled CLI from being compiled from its code cache (bin/code-cache.js).
  const { listen: listhen } = createRequire(import.meta.url)('listhen') as typeof import('listhen');
  return listhen(handler, {
    port: options.port,
    // listhen's "production" mode only changes port discovery here (public and the printing options are
    // set explicitly): a taken port is then an error, never a silent move to port 3000 or a random one,
    // since clients and printed URLs point at the documented port. Port 0 still picks a free one.
    isProd: options.port !== 0,
    hostname: options.hostname,
    https: options.https,
    showURL: false,
    autoClose: false,
    qr: false,
    public: options.public,
    isTest: true,
  });
}
