/**
 * The programmatic entry: `startSandbox(options) -> { url, close }`. `paylink sandbox` is a thin command
 * over it, and tests start one on port 0 with a temporary database.
 */
import { DEFAULT_DB, DEFAULT_PORT } from './domain/defaults.js';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { listen, type SandboxListener } from './http/listen.js';
import { createSandboxApp } from './app.js';
import type { RequestObserver } from './http/observe.js';
import { errorEnvelope } from './http/envelope.js';
import { methodNotAllowed, unreadableRequest } from './errors.js';
import type { Credential } from './config.js';
import { Sandbox } from './context.js';
import type { Timers } from './domain/timers.js';
import { openTunnel } from './admin/tunnel.js';
import type { AuthorityFiles } from './drop-in/authority.js';

export interface StartSandboxOptions {
  /**
   * Port to listen on; 0 picks a free one.
   * @default 8417
   */
  port?: number;
  /**
   * Interface to listen on.
   * @default "127.0.0.1"
   */
  host?: string;
  /**
   * SQLite database file, or `:memory:`.
   * @default ".paylink/sandbox.db" under the working directory
   */
  db?: string;
  /**
   * Serve HTTPS: `true` for a generated self-signed certificate, or paths to a certificate and key.
   * @default false
   */
  https?: boolean | { cert: string; key: string };
  /**
   * Also listen on `127.0.0.1:<proxy>` as an HTTP proxy that answers the provider's hosts (over TLS with a
   * certificate from paylink's local authority) and refuses every other host (docs/drop-in.md); 0 picks a port.
   */
  proxy?: number;
  /**
   * Where paylink's local certificate authority is (made there when missing), for `https: true` and `proxy`.
   * @default "$XDG_CONFIG_HOME/paylink/ca", else "~/.config/paylink/ca"
   */
  authority?: AuthorityFiles;
  /** Told of each target the proxy refused (`paylink sandbox` prints it), with `proxy`. */
  onProxyRefused?: (target: string) => void;
  /** Public base URL (tunnel or reverse proxy); every `redirect.url` and library target uses it. */
  publicUrl?: string;
  /** HTTP Basic credentials; when given, the API refuses requests without them (401) or for other businesses (403). */
  credentials?: Credential[];
  /** Token for `/__sandbox/` and the dashboard; generated when the sandbox is not on loopback or has a public URL. */
  adminToken?: string;
  /** Seed for reproducible ids and approval codes. */
  seed?: string;
  /** Open a public tunnel with listhen (needs network access). */
  tunnel?: boolean;
  /**
   * Host names requests may name besides loopback names, IP addresses and the public URL's host (others get
   * 421, against DNS rebinding): `example.test`, or `.example.test` for it and its subdomains.
   * @default []
   */
  allowedHosts?: string[];
  /**
   * Size the request log is held to (path, request and response text, oldest rows pruned first); bodies over
   * 16 KiB are stored truncated with a marker.
   * @default 33554432 (32 MiB)
   */
  requestLogMaxBytes?: number;
  /**
   * Webhook events kept at least, with their deliveries and attempts; older ones are pruned once none of
   * their deliveries is pending (docs/reliability.md, "Retention").
   * @default 100000
   */
  eventsKept?: number;
  /**
   * Bytes all snapshots may take together; a save that would pass it is refused (docs/reliability.md,
   * "Retention").
   * @default 2147483648 (2 GiB)
   */
  snapshotsMaxBytes?: number;
  /** Observers of every answered request. */
  observers?: RequestObserver[];
  /**
   * Secret webhook events are signed with (endpoints without their own, notifyUrl, `paylink listen`).
   * @default the one stored in the database, else a new one, stored
   */
  webhookSecret?: string;
  /**
   * Retry schedule of webhook deliveries: `standard` (5 s up to 6 h, docs/webhooks.md), `fast` (within
   * about 5 s, for tests and CI), or the waits in milliseconds.
   * @default "standard"
   */
  webhookRetry?: 'standard' | 'fast' | readonly number[];
  /**
   * Milliseconds a webhook attempt may take before it counts as failed.
   * @default 10000 (2000 with the fast schedule)
   */
  webhookTimeoutMs?: number;
  /**
   * Request header carrying the event signature.
   * @default "x-payvision-signature"
   */
  webhookHeader?: string;
  /**
   * For tests: the wall-clock now and waits of the sandbox's own machinery (webhook retries and attempt
   * timeouts, the sweep of what time settles, long polls). Pass a `ManualTimers` and call its `advance(ms)`
   * to move that time instead of sleeping (docs/testing.md, "Timers"). The business clock (`paylink clock`)
   * is separate and unaffected.
   * @default Node's timers and Date.now
   */
  timers?: Timers;
}

export interface RunningSandbox {
  /** Base URL the sandbox listens at, e.g. `http://127.0.0.1:8417`. */
  url: string;
  /** Base URL handed out in responses: the public URL when set, else `url`. */
  publicUrl: string;
  /** Token for the admin endpoints, when they require one. */
  adminToken: string | undefined;
  /**
   * The sandbox's state (database, clock, repositories), for paylink's own tests and tools. @internal: left
   * out of the published types (`stripInternal`), so they depend on nothing but Node's (docs/reliability.md).
   */
  sandbox: Sandbox;
  /** Why `tunnel: true` opened no tunnel (the sandbox serves locally all the same). */
  tunnelError?: string | undefined;
  /**
   * The certificate (PEM) a client of an HTTPS sandbox trusts: with `https: true` paylink's local authority,
   * which signed the served certificate (localhost, loopback and the provider's hosts); else the one given.
   */
  certificate?: string | undefined;
  /** `http://127.0.0.1:<port>` of the proxy listener, with `proxy`. */
  proxyUrl?: string | undefined;
  /** The certificate file of paylink's local authority (to trust), with `https: true` or `proxy`. */
  authorityFile?: string | undefined;
  /** How webhook events are signed and sent (docs/webhooks.md). */
  webhooks: {
    /** The sandbox's webhook secret. */
    secret: string;
    /** `config` (given), `stored` (from an earlier run) or `generated` (new, now stored). */
    secretSource: 'config' | 'stored' | 'generated';
    /** The request header with the signature. */
    header: string;
    /** The hookId of notifyUrl deliveries and `paylink listen`. */
    hookId: string;
    retry: 'standard' | 'fast' | 'custom';
  };
  /** Stops listening and closes the database (committing what was answered). */
  close(): Promise<void>;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Starts a sandbox and resolves once it is listening. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const needsToken = !isLoopback(host) || options.publicUrl !== undefined || options.tunnel === true;
  const adminToken = options.adminToken ?? (needsToken ? randomToken() : undefined);
  const sandbox = new Sandbox(
    {
      db: options.db ?? DEFAULT_DB,
      publicUrl: options.publicUrl,
      credentials: options.credentials,
      adminToken,
      seed: options.seed,
      allowedHosts: options.allowedHosts,
      requestLogMaxBytes: options.requestLogMaxBytes,
      eventsKept: options.eventsKept,
      snapshotsMaxBytes: options.snapshotsMaxBytes,
      webhookSecret: options.webhookSecret,
      webhookHeader: options.webhookHeader,
      webhookRetry: options.webhookRetry,
      webhookTimeoutMs: options.webhookTimeoutMs,
    },
    options.timers,
  );
  const { nodeListener, observe, releaseHeld } = createSandboxApp(sandbox);
  observe(sandbox.log.observer);
  for (const observer of options.observers ?? []) observe(observer);
  // Connections a fault holds or delays end at the close too.
  sandbox.addTask({ name: 'held connections', stop: releaseHeld }, { before: 'delivery worker' });

  const requestedPort = options.port ?? DEFAULT_PORT;
  // paylink's local authority, made once per user, when a mode needs a certificate from it (its module is
  // imported only then, as the proxy's and listhen for HTTPS: a plain start loads none of them).
  const dropIn = options.https === true || options.proxy !== undefined ? await import('./drop-in/authority.js') : undefined;
  const authority = dropIn?.loadAuthority(options.authority ?? dropIn.authorityFiles());
  let served: { cert: string; key: string } | false = false;
  if (typeof options.https === 'object') served = options.https;
  else if (options.https === true && dropIn !== undefined && authority !== undefined) served = dropIn.serverCertificate(authority, host);
  let listener: SandboxListener;
  try {
    // Requests under a provider's Host are answered as the provider, on every listener (drop-in/).
    listener = await listen(sandbox.providerRequests.listener(nodeListener, Boolean(options.https)), {
      port: requestedPort,
      hostname: host,
      https: served,
      public: !isLoopback(host),
    });
  } catch (error) {
    await sandbox.close();
    if ((error as Error).name === 'GetPortError' || (error as { code?: string }).code === 'EADDRINUSE') {
      throw Object.assign(new Error(`Port ${requestedPort} on ${host} is already in use`), { code: 'EADDRINUSE', cause: error });
    }
    throw error;
  }

  // Requests the HTTP parser refuses never reach the app (a URL or headers over 16 KB, broken HTTP); Node
  // would answer them with a bare status line. They get the envelope too.
  listener.server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerUnreadable(sandbox, error, socket));
  // CONNECT (a proxy's tunnel) never reaches the app either: Node gives it to 'connect' listeners and, with
  // none, drops the connection unanswered. The sandbox is not a proxy: a 405 envelope.
  listener.server.on('connect', (req: IncomingMessage, socket: Duplex) => answerConnect(sandbox, req, socket));

  const address = listener.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
  const scheme = options.https ? 'https' : 'http';
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const url = `${scheme}://${urlHost}:${port}`;
  // Known at once, for the Host check of requests that arrive while a tunnel opens.
  sandbox.listenUrl = url;

  let proxyUrl: string | undefined;
  if (options.proxy !== undefined && dropIn !== undefined && authority !== undefined) {
    try {
      const { startProxy } = await import('./drop-in/proxy.js');
      const proxy = await startProxy({
        port: options.proxy,
        tls: dropIn.serverCertificate(authority),
        listener: nodeListener,
        provider: sandbox.providerRequests,
        ...(options.onProxyRefused !== undefined ? { onRefused: options.onProxyRefused } : {}),
      });
      proxyUrl = proxy.url;
      sandbox.addTask({ name: 'proxy', stop: () => proxy.close() });
    } catch (error) {
      await listener.close();
      await sandbox.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw Object.assign(new Error(`Proxy port ${options.proxy} on 127.0.0.1 is already in use`), { code: 'EADDRINUSE', proxy: true, cause: error });
      }
      throw error;
    }
  }

  let tunnelError: string | undefined;
  if (options.tunnel === true && options.publicUrl === undefined) {
    try {
      const tunnel = await openTunnel(url);
      sandbox.config.publicUrl = tunnel.url;
      sandbox.addTask({ name: 'tunnel', stop: () => tunnel.close().catch(() => undefined) });
    } catch (error) {
      tunnelError = (error as Error).message;
    }
  }
  // The listener stops last, after every task that may still answer or write.
  sandbox.addTask({ name: 'listener', stop: () => listener.close() });
  await sandbox.start({ url, port });

  const retry = options.webhookRetry ?? 'standard';
  return {
    url,
    publicUrl: sandbox.baseUrl,
    adminToken,
    sandbox,
    tunnelError,
    certificate: options.https === true && authority !== undefined ? authority.cert : listener.https ? listener.https.cert : undefined,
    proxyUrl,
    authorityFile: authority?.files.cert,
    webhooks: {
      secret: sandbox.events.secret,
      secretSource: sandbox.webhookSecretSource,
      header: sandbox.webhookHeader,
      hookId: sandbox.events.hookId,
      retry: typeof retry === 'string' ? retry : 'custom',
    },
    close: () => sandbox.close(),
  };
}

function answerUnreadable(sandbox: Sandbox, error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler does: no answer on a closed socket or in the middle of another answer (a
  // keep-alive socket's response in flight, `_httpMessage` being Node's name for it).
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the URL and headers are larger than 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'it did not arrive in time']
        : [400, 'it is not valid HTTP/1.1'];
  const body = JSON.stringify(errorEnvelope(sandbox, unreadableRequest(status, detail)));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function answerConnect(sandbox: Sandbox, req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  const error = methodNotAllowed('CONNECT', req.url ?? '/', ['GET', 'POST']);
  const body = JSON.stringify(errorEnvelope(sandbox, error));
  socket.end(
    `HTTP/1.1 405 ${STATUS_CODES[405]}\r\nallow: GET, HEAD, POST\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url');
}

export type { Credential, SandboxConfig } from './config.js';
export type { RequestObserver, ObservedRequest } from './http/observe.js';
export { ApiError, ERROR_CODES, RESULTS } from './errors.js';
export { libraryScriptTag, servedLibrary, type LibraryKind, type ServedLibrary } from './web/library-scripts.js';
export { DEFAULT_DB, DEFAULT_PORT } from './domain/defaults.js';
export { ManualTimers, realTimers, type TimerHandle, type Timers } from './domain/timers.js';
