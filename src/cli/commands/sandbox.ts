/**
 * `paylink sandbox`: starts the local sandbox and serves until Ctrl-C. A thin command: it resolves options
 * and calls `startSandbox`. The one CLI module that imports the sandbox, and only its entry point
 * (src/sandbox/index.ts); the registry loads it only when this command runs.
 */
import type { Options, Run } from '../command-spec.js';
import type { sandbox as spec } from './sandbox.spec.js';
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { dirname, resolve } from 'node:path';
import { libraryScriptTag, servedLibrary, startSandbox, type Credential, type RunningSandbox } from '../../sandbox/index.js';
import { configuredWebhookSecret, DEFAULT_DETERMINISTIC_SEED } from '../config.js';
import { defaultPort, PORT_ENV } from '../defaults.js';
import { portInUseMessage, UsageError } from '../errors.js';
import type { Ui } from '../ui.js';
import { recordRunning, removeRunning, removeSandboxEntry, writeSandboxEntry } from '../discovery.js';
import { CHECK_MS, keepYoungGenerationSize, v8YoungGeneration, YOUNG_GENERATION_BYTES } from '../young-generation.js';
import { API_BASE, HOSTED_BASE } from '../../sandbox/domain/routes.js';
import { startConsole, wantsConsole } from './sandbox-console.js';

/**
 * `paylink sandbox`'s flags (sandbox.spec.ts): `deterministic` is true for the default seed, `seed` and
 * `allowedHost` are repeatable, `webhookSecret` falls back to PAYLINK_WEBHOOK_SECRET, then the config file.
 */
export type SandboxCommandOptions = Options<typeof spec>;

/** Parses `--credentials`: a JSON file `[{username, password, businessIds}]` or `user:pass=biz1,biz2`. */
export function parseCredentials(value: string): Credential[] {
  const inline = /^([^:=]+):([^=]+)=(.+)$/.exec(value);
  if (inline)
    return [
      {
        username: inline[1]!,
        password: inline[2]!,
        businessIds: inline[3]!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      },
    ];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(value, 'utf8'));
  } catch (error) {
    throw new UsageError(`--credentials: cannot read ${value} as JSON (${(error as Error).message}). Give a JSON file or user:password=business1,business2.`);
  }
  const list = Array.isArray(parsed) ? parsed : [];
  const ok =
    list.length > 0 &&
    list.every(
      (c) =>
        c &&
        typeof c.username === 'string' &&
        typeof c.password === 'string' &&
        Array.isArray(c.businessIds) &&
        c.businessIds.every((b: unknown) => typeof b === 'string'),
    );
  if (!ok) throw new UsageError(`--credentials: ${value} must hold an array of {"username", "password", "businessIds": [...]}.`);
  return list as Credential[];
}

function parseMegabytes(value: string): number {
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb < 1 || mb > 100_000) throw new UsageError(`--request-log-mb: expected a size in MiB from 1 to 100000, got "${value}".`);
  return Math.round(mb * 1024 * 1024);
}

function parsePort(value: string, flag = '--port'): number {
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${flag}: expected a port number from 0 to 65535, got "${value}".`);
  return port;
}

function parsePublicUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url.href.replace(/\/+$/, '');
  } catch {
    throw new UsageError(`--public-url: expected an absolute http(s) URL, got "${value}".`);
  }
}

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * Checks `--db` before the sandbox opens it, so that a wrong path is a usage error (exit 2) and not a
 * stack trace: a folder, a device or a file that is not a SQLite database is refused; so is a path under a
 * regular file. paylink creates the database's own folder (`.paylink/` of `.paylink/sandbox.db`) and no
 * more: a folder whose parent is missing too is refused, so that a typo never creates folders elsewhere,
 * at the filesystem's root say. Answers what the start may create, for {@link cleanUpAfterFailedStart}.
 */
export function checkDatabasePath(db: string, cwd = process.cwd()): string[] {
  if (db === ':memory:' || db === '') return [];
  const path = resolve(cwd, db);
  const folder = dirname(path);
  const kindOf = (at: string) => {
    try {
      const stat = statSync(at);
      return stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return 'missing';
      if (code === 'ENOTDIR') return 'under-file';
      return 'unreadable';
    }
  };
  const folderKind = kindOf(folder);
  if (folderKind === 'missing') {
    const parentKind = kindOf(dirname(folder));
    if (parentKind !== 'folder') {
      throw new UsageError(
        parentKind === 'file' || parentKind === 'under-file'
          ? `--db ${db}: ${dirname(folder)} is a file, not a folder. Give a database path in a folder.`
          : `--db ${db}: the folder ${dirname(folder)} does not exist. paylink creates only the database's own folder (${folder}); create the others first, or give a path in an existing folder.`,
      );
    }
  } else if (folderKind !== 'folder') {
    throw new UsageError(
      folderKind === 'unreadable'
        ? `--db ${db}: cannot reach the folder ${folder}.`
        : `--db ${db}: ${folderKind === 'file' ? folder : `a part of ${folder}`} is a file, not a folder. Give a database path in a folder.`,
    );
  }
  const kind = kindOf(path);
  if (kind === 'folder') throw new UsageError(`--db ${db}: ${path} is a folder. Give a database file inside it, such as ${resolve(path, 'sandbox.db')}.`);
  if (kind === 'other') throw new UsageError(`--db ${db}: ${path} is not a regular file (a device, a socket or a pipe). Give a database file.`);
  if (kind === 'file') {
    // A file of another kind (/proc/version, a text file): SQLite would refuse it halfway through the start.
    let head = '';
    try {
      const fd = openSync(path, 'r');
      try {
        const buffer = Buffer.alloc(SQLITE_HEADER.length);
        head = buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      throw new UsageError(`--db ${db}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
    if (head !== '' && head !== SQLITE_HEADER)
      throw new UsageError(
        `--db ${db}: ${path} is not a usable SQLite database (another kind of file). Point --db at another file, or move this one away to start with a new database.`,
      );
  }
  // What a start creates and a failed start removes again: the folder, the database and its companions.
  return [folder, path, `${path}-wal`, `${path}-shm`, `${path}-journal`, `${path}.lock`].filter((file) => !existsSync(file));
}

/**
 * After a start that failed (a port in use, a bad certificate...): removes what it created of `created`
 * (from {@link checkDatabasePath}), files first, the folder last and only when empty, so that nothing of a
 * sandbox that never ran is left behind. Nothing, though, when `error` says another process holds the
 * database (`EDBINUSE`): files that were missing when this start looked may be that process's by now (two
 * starts on a fresh file at once: the refused one removed the database, its WAL and its lock under the one
 * that got the lock, whose next statement failed with a disk I/O error).
 */
export function cleanUpAfterFailedStart(created: string[], error?: unknown): void {
  if ((error as { code?: unknown } | undefined)?.code === 'EDBINUSE') return;
  for (const file of created.slice(1)) rmSync(file, { force: true });
  const folder = created[0];
  if (folder !== undefined && existsSync(folder) && lstatSync(folder).isDirectory() && readdirSync(folder).length === 0) rmdirSync(folder);
}

/** `--cert` and `--key`: readable PEM files that make a TLS identity together; answers their text. */
function readTlsIdentity(certFile: string, keyFile: string): { cert: string; key: string } {
  const read = (file: string, flag: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`${flag} ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
  };
  const cert = read(certFile, '--cert');
  const key = read(keyFile, '--key');
  if (!cert.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--cert ${certFile}: holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  if (!/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/.test(key)) throw new UsageError(`--key ${keyFile}: holds no PEM private key (-----BEGIN PRIVATE KEY-----).`);
  try {
    // node:tls on demand: loading it costs every start a few ms, and only --cert needs it.
    process.getBuiltinModule('node:tls').createSecureContext({ cert, key });
  } catch (error) {
    throw new UsageError(
      `--cert ${certFile} --key ${keyFile}: not a usable TLS certificate and key (${(error as Error).message.replace(/^error:[0-9A-F]+:/, '')}). Are they a pair, in PEM?`,
    );
  }
  return { cert, key };
}

/**
 * `--host`: an IP address must be one of this machine's (or 0.0.0.0, ::, loopback); otherwise listening
 * fails, and the listener reported it as a port in use.
 */
function checkHost(host: string): void {
  if (isIP(host) === 0) return;
  if (host === '0.0.0.0' || host === '::' || host === '::1' || host.startsWith('127.')) return;
  const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  if (!own.includes(host))
    throw new UsageError(
      `--host ${host}: no network interface of this machine has that address (${own.join(', ')}). Give one of them, 127.0.0.1, or 0.0.0.0 for all.`,
    );
}

/**
 * Starts the sandbox with the command's options; resolves once it is listening. `onListening` runs before
 * anything is printed (the discovery entry is written there, so whoever reads the banner finds it).
 */
export async function runSandbox(
  options: SandboxCommandOptions,
  ui: Ui,
  onListening?: (running: RunningSandbox) => string | undefined,
): Promise<RunningSandbox> {
  if ((options.cert === undefined) !== (options.key === undefined)) throw new UsageError('--cert and --key go together.');
  const https = options.cert && options.key ? readTlsIdentity(options.cert, options.key) : options.https === true;
  checkHost(options.host);
  const created = checkDatabasePath(options.db);
  const seedFiles = options.seed ?? [];
  // Fixture files are checked before the sandbox starts, so a typo fails at once.
  const fixtures = seedFiles.length > 0 ? await import('../seed/load.js') : undefined;
  if (fixtures) {
    try {
      fixtures.readFixtureFiles(seedFiles);
    } catch (error) {
      throw new UsageError(`--seed: ${(error as Error).message}`);
    }
  }
  const credentials = options.credentials === undefined ? undefined : parseCredentials(options.credentials);
  const retry = options.webhookRetry ?? 'standard';
  if (retry !== 'standard' && retry !== 'fast') throw new UsageError(`--webhook-retry: expected standard or fast, got "${retry}".`);
  const header = options.webhookHeader;
  if (header !== undefined && !/^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(header)) throw new UsageError(`--webhook-header: "${header}" is not a header name.`);
  const webhookSecret = options.webhookSecret ?? (process.env.PAYLINK_WEBHOOK_SECRET || undefined) ?? configuredWebhookSecret();
  let running: RunningSandbox;
  try {
    running = await startSandbox({
      port: options.port === undefined ? defaultPort() : parsePort(options.port),
      host: options.host,
      db: options.db,
      https,
      publicUrl: options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl),
      credentials,
      adminToken: options.adminToken,
      seed: options.deterministic === undefined ? undefined : options.deterministic === true ? DEFAULT_DETERMINISTIC_SEED : options.deterministic,
      tunnel: options.tunnel === true,
      allowedHosts: options.allowedHost ?? [],
      ...(options.requestLogMb !== undefined ? { requestLogMaxBytes: parseMegabytes(options.requestLogMb) } : {}),
      ...(webhookSecret !== undefined ? { webhookSecret } : {}),
      webhookRetry: retry,
      ...(header !== undefined ? { webhookHeader: header } : {}),
      ...(options.proxy !== undefined
        ? {
            proxy: parsePort(options.proxy, '--proxy'),
            onProxyRefused: (target: string) => ui.warn(`proxy refused ${target}: only the provider's hosts are served, nothing else is contacted`),
          }
        : {}),
    });
  } catch (error) {
    cleanUpAfterFailedStart(created, error);
    throw startFailure(error, options);
  }
  let certificateFile: string | undefined;
  try {
    certificateFile = onListening?.(running);
  } catch (error) {
    await running.close();
    cleanUpAfterFailedStart(created);
    throw error;
  }
  if (running.tunnelError) ui.error(running.tunnelError);
  const base = running.publicUrl;
  ui.heading('paylink sandbox is running');
  // The line to paste into another shell (or a CI step) whose commands should reach this sandbox.
  ui.line(`  PAYLINK_BASE_URL=${base}`);
  ui.field('API', `${base}${API_BASE}`);
  ui.field('Hosted pages', `${base}${HOSTED_BASE}`);
  ui.field('Dashboard', running.adminToken ? `${base}/?token=${running.adminToken}` : `${base}/`);
  if (base !== running.url) ui.field('Listening on', running.url);
  ui.field('Database', options.db);
  ui.field('Link library', libraryScriptTag(base, 'paymentlink'));
  ui.field('Checkout lib', libraryScriptTag(base, 'checkout'));
  // The script has this base URL built in, so its hash changes with the port: say so where the tag is copied.
  ui.line(`${' '.repeat(21)}(the integrity hash is for ${base}: copy the tags again when the port or --public-url changes, or start with a fixed --port)`);
  if (running.adminToken) ui.field('Admin token', running.adminToken);
  // An https sandbox: the certificate the commands run from here trust, and the one to give elsewhere.
  if (certificateFile !== undefined) ui.field('Certificate', `${certificateFile} (trusted by commands run from this folder; elsewhere --ca <file>)`);
  if (running.proxyUrl !== undefined) {
    ui.field('Proxy', `${running.proxyUrl} (the provider's hosts only; \`eval "$(paylink env)"\` sends a shell through it)`);
  }
  if (running.authorityFile !== undefined)
    ui.field('Authority', `${running.authorityFile} (paylink's local CA; docs/drop-in.md says how to trust and remove it)`);
  if (options.credentials) ui.field('Credentials', 'required (HTTP Basic)');
  const hooks = running.webhooks;
  ui.field(
    'Webhook secret',
    `${hooks.secret} (${hooks.secretSource === 'generated' ? 'new, stored in the database' : hooks.secretSource === 'stored' ? 'stored in the database' : 'configured'}; header ${hooks.header})`,
  );
  if (running.sandbox.config.seed !== undefined) ui.field('Deterministic', `ids from seed "${running.sandbox.config.seed}"`);
  let seeded: Record<string, string> = {};
  if (fixtures) {
    const cred = credentials?.[0];
    try {
      const { ids } = await fixtures.loadFixtures(seedFiles, {
        // The sandbox's own listen URL: seeding must not depend on a tunnel being reachable.
        connection: { baseUrl: running.url, businessId: cred?.businessIds[0] ?? 'sandbox-business', username: cred?.username, password: cred?.password },
        admin: { baseUrl: running.url, adminToken: running.adminToken },
      });
      seeded = ids;
      ui.heading(`Seeded from ${seedFiles.join(', ')}`);
      for (const [name, id] of Object.entries(ids)) ui.field(name, id);
    } catch (error) {
      await running.close();
      cleanUpAfterFailedStart(created);
      throw error;
    }
  }
  if (ui.options.json) ui.json(sandboxSummary(running, options, seeded));
  ui.info('Press Ctrl-C to stop.');
  return running;
}

/** A start's failure as the person can act on it: SQLite refusing the database file is a usage error. */
function startFailure(error: unknown, options: SandboxCommandOptions): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    return new UsageError(`--db ${options.db}: SQLite cannot use it (${(error as Error).message}). Give a new file name, or a database a sandbox made.`);
  }
  if (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
    return new UsageError(`--db ${options.db}: cannot create or open it (${(error as Error).message}).`);
  }
  if (code === 'EADDRINUSE') {
    // Name what chose the port that is taken: the proxy's flag, the sandbox's flag, or the environment.
    const fromEnv = options.port === undefined ? process.env[PORT_ENV] : undefined;
    let from = fromEnv ? `--port (it came from ${PORT_ENV}=${fromEnv})` : '--port';
    if ((error as { proxy?: boolean }).proxy === true) from = '--proxy';
    return new UsageError(portInUseMessage(error as Error, `with ${from}`));
  }
  return error;
}

/** What `paylink sandbox --json` prints once listening: one JSON document for the script that started it. */
function sandboxSummary(running: RunningSandbox, options: SandboxCommandOptions, seeded: Record<string, string>) {
  const base = running.publicUrl;
  const library = (kind: 'paymentlink' | 'checkout') => {
    const { path, integrity } = servedLibrary(base, kind);
    return { src: `${base}${path}`, integrity };
  };
  return {
    url: running.url,
    publicUrl: base,
    api: `${base}${API_BASE}`,
    hostedPages: `${base}${HOSTED_BASE}`,
    dashboard: running.adminToken ? `${base}/?token=${running.adminToken}` : `${base}/`,
    adminToken: running.adminToken ?? null,
    database: options.db,
    credentialsRequired: options.credentials !== undefined,
    deterministicSeed: running.sandbox.config.seed ?? null,
    library: { paymentlink: library('paymentlink'), checkout: library('checkout') },
    seeded,
    tunnelError: running.tunnelError ?? null,
    proxy: running.proxyUrl ?? null,
    authority: running.authorityFile ?? null,
    webhooks: { secret: running.webhooks.secret, header: running.webhooks.header, hookId: running.webhooks.hookId, retry: running.webhooks.retry },
  };
}

/** Resolves when the process is asked to stop (Ctrl-C, SIGTERM), after closing the sandbox. */
export function serveUntilSignal(running: RunningSandbox, ui: Ui, beforeClose?: () => void): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      beforeClose?.();
      ui.info('Stopping the sandbox...');
      void running.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * The command itself: tunes V8's heap for a process that only serves the sandbox, starts it, and serves
 * until Ctrl-C or SIGTERM.
 */
export async function serveSandbox(options: SandboxCommandOptions, ui: Ui): Promise<void> {
  // This process only serves the sandbox, allocating per request, with a small live heap (about 12 MB
  // after a load test). Keeping V8's young generation at its size after start-up holds RSS about 25 MB
  // lower under load (see keepYoungGenerationSize), and growing the old generation by at most 30% over
  // what survived the last full collection (V8 picks up to 100% or more when allocation is fast) about
  // 15 MB more, at no measurable throughput cost (measured with npm run bench). Set here, not in
  // startSandbox, so an embedding process keeps its own tuning. Both from the young generation's first check
  // on: until then V8 has made no full collection to grow the old generation from, and loading node:v8
  // (about 2 ms) stays off the way to the first answer.
  keepYoungGenerationSize(YOUNG_GENERATION_BYTES, v8YoungGeneration, CHECK_MS, () =>
    process.getBuiltinModule('node:v8').setFlagsFromString('--heap-growing-percent=30'),
  );
  // Other commands run from this folder find this sandbox on whatever port it got (discovery.ts): one
  // entry per running sandbox, named after its database, written before the banner is printed.
  // The entry holds the admin token for commands run from here (mode 0600: its owner's only); the user's
  // index of running sandboxes says which folder this one came from to commands run elsewhere.
  let entryPath: string | undefined;
  let indexPath: string | undefined;
  const forget = () => {
    if (entryPath !== undefined) removeSandboxEntry(entryPath);
    removeRunning(indexPath);
  };
  let running: RunningSandbox;
  try {
    running = await runSandbox(options, ui, (started) => {
      const entry = {
        url: started.publicUrl,
        listen: started.url,
        pid: process.pid,
        db: options.db,
        startedAt: new Date().toISOString(),
        adminToken: started.adminToken,
        ...(started.proxyUrl !== undefined ? { proxy: started.proxyUrl } : {}),
        ...(started.authorityFile !== undefined ? { authority: started.authorityFile } : {}),
      };
      entryPath = writeSandboxEntry(process.cwd(), entry, started.certificate);
      indexPath = recordRunning(process.cwd(), entry);
      return started.certificate === undefined ? undefined : entryPath.replace(/\.json$/, '.pem');
    });
  } catch (error) {
    // A --seed that failed: the sandbox is closed again, and so is its entry.
    forget();
    throw error;
  }
  // The live console: a line per request and per webhook delivery, on a terminal only (sandbox-console.ts).
  const stopConsole = wantsConsole(ui) ? startConsole(running.sandbox.log, ui) : undefined;
  if (stopConsole !== undefined) ui.info('Requests and webhook deliveries show below as they happen (--quiet hides them).');
  try {
    await serveUntilSignal(running, ui, stopConsole);
  } finally {
    forget();
  }
}

export const sandboxCommand: Run<typeof spec> = (_args, flags, ctx) => serveSandbox(flags, ctx.ui);
