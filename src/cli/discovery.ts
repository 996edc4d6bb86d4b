/**
 * Sandbox discovery: how the commands run from a folder find the sandbox started there, on whatever port it
 * got, without ever switching silently to another one (docs/cli.md, "FILES").
 *
 * Each running `paylink sandbox` leaves one entry in `.paylink/sandboxes/` of the folder it was started in,
 * named after its database (`<sha256 of the absolute database path, 16 hex>.json`; a `:memory:` sandbox,
 * which shares its database with nobody, is `memory-<pid>.json`), and removes it when it stops. Two
 * sandboxes never share a database file, so two running sandboxes never share an entry.
 *
 * A command with no base URL configured (flag, environment, config file) looks in the working directory
 * and the folders above it for the nearest `.paylink/sandboxes/`:
 * - none anywhere: the default URL (`http://127.0.0.1:8417`), as ever;
 * - exactly one live entry: its URL (and its certificate, for a `--https` sandbox);
 * - entries, none of them live (the process is gone, or its port does not answer): exit 4, naming the
 *   sandbox that is gone and what to do; never the default URL, which may be another project's sandbox;
 * - several live entries: exit 2, naming them; `--base-url` (or `PAYLINK_BASE_URL`) says which.
 * An entry whose process is gone is deleted once reported.
 *
 * `paylink wait` and anything else that must find "this folder's sandbox" use {@link discoverSandbox}.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { UnreachableError, UsageError } from './errors.js';

/** The folder of entries, relative to the folder a sandbox was started in. */
export const SANDBOXES_DIR = join('.paylink', 'sandboxes');

/** What one entry holds. */
export interface SandboxEntry {
  /** The base URL commands use: the sandbox's public URL, else where it listens. */
  url: string;
  /** Where it listens (`url` differs with `--public-url` or a tunnel): the address probed for liveness. */
  listen: string;
  pid: number;
  /** The database as given (`.paylink/sandbox.db`, `:memory:`), and absolute when a file. */
  db: string;
  /**
   * A PEM file the CLI trusts for this sandbox's TLS: the self-signed certificate a `--https` sandbox
   * generated (written beside the entry), or the `--cert` it was given. Absent for http.
   */
  ca?: string | undefined;
  /** `http://127.0.0.1:<port>` of its proxy listener (`--proxy`), for `paylink env` (docs/drop-in.md). */
  proxy?: string | undefined;
  /** The certificate file of paylink's local authority it serves leaves from (`--proxy`, `--https`). */
  authority?: string | undefined;
  /** ISO 8601. */
  startedAt: string;
}

/** An entry as found, with its file and whether its sandbox is there. */
export interface FoundEntry extends SandboxEntry {
  /** The entry's file. */
  path: string;
  /** `live`, or why not: its process is gone, or its port does not answer. */
  state: 'live' | 'process-gone' | 'not-answering';
}

/** What discovery found for a folder. */
export type Discovery =
  /** No `.paylink/sandboxes/` in the folder or above: nothing started here. */
  | { kind: 'none' }
  /** The one live sandbox of `dir`. */
  | { kind: 'found'; dir: string; entry: FoundEntry }
  /** Sandboxes were started in `dir`, and none of them is there now (`stale` lists those that died). */
  | { kind: 'gone'; dir: string; stale: FoundEntry[] }
  /** Several live sandboxes in `dir`: refusing to guess. */
  | { kind: 'ambiguous'; dir: string; entries: FoundEntry[] };

/** The entry file name of a sandbox on `db` started in `cwd`. */
export function entryName(cwd: string, db: string, pid = process.pid): string {
  if (db === ':memory:' || db === '') return `memory-${pid}`;
  return createHash('sha256').update(resolve(cwd, db)).digest('hex').slice(0, 16);
}

/**
 * Writes the entry of a starting sandbox in `cwd/.paylink/sandboxes/`, with `certificate` (PEM) beside it
 * when given; answers the entry's path. Written whole then renamed, so a reader never sees half of it.
 */
export function writeSandboxEntry(cwd: string, entry: Omit<SandboxEntry, 'ca'> & { ca?: string | undefined }, certificate?: string): string {
  const dir = join(cwd, SANDBOXES_DIR);
  mkdirSync(dir, { recursive: true });
  const name = entryName(cwd, entry.db, entry.pid);
  const path = join(dir, `${name}.json`);
  let ca = entry.ca;
  if (certificate !== undefined) {
    ca = join(dir, `${name}.pem`);
    writeFileSync(ca, certificate);
  }
  const db = entry.db === ':memory:' ? entry.db : resolve(cwd, entry.db);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ ...entry, db, ...(ca !== undefined ? { ca } : {}) }, null, 2)}\n`);
  renameSync(temporary, path);
  return path;
}

/** Removes the entry at `path` (and the certificate it names beside it) if it is still `pid`'s. */
export function removeSandboxEntry(path: string, pid = process.pid): void {
  try {
    const entry = JSON.parse(readFileSync(path, 'utf8')) as Partial<SandboxEntry>;
    if (entry.pid !== pid) return;
    rmSync(path, { force: true });
    if (typeof entry.ca === 'string' && entry.ca === path.replace(/\.json$/, '.pem')) rmSync(entry.ca, { force: true });
  } catch {
    // Gone already, or not ours to judge: leave it.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseEntry(path: string): SandboxEntry | undefined {
  try {
    const e = JSON.parse(readFileSync(path, 'utf8')) as Partial<SandboxEntry>;
    if (typeof e.url !== 'string' || !/^https?:\/\//.test(e.url) || typeof e.pid !== 'number') return undefined;
    return {
      url: e.url,
      listen: typeof e.listen === 'string' && /^https?:\/\//.test(e.listen) ? e.listen : e.url,
      pid: e.pid,
      db: String(e.db ?? ''),
      ca: typeof e.ca === 'string' ? e.ca : undefined,
      ...(typeof e.proxy === 'string' && /^http:\/\/127\.0\.0\.1:\d+$/.test(e.proxy) ? { proxy: e.proxy } : {}),
      ...(typeof e.authority === 'string' ? { authority: e.authority } : {}),
      startedAt: String(e.startedAt ?? ''),
    };
  } catch {
    // A torn or foreign file: not a sandbox to use.
    return undefined;
  }
}

/** The nearest folder (`cwd` or above) with `.paylink/sandboxes/`, and its entries, unjudged. */
export function readSandboxEntries(cwd: string): { dir: string; entries: (SandboxEntry & { path: string })[] } | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const folder = join(dir, SANDBOXES_DIR);
    if (existsSync(folder)) {
      const entries: (SandboxEntry & { path: string })[] = [];
      for (const name of readdirSync(folder).sort()) {
        if (!name.endsWith('.json')) continue;
        const path = join(folder, name);
        const entry = parseEntry(path);
        if (entry) entries.push({ ...entry, path });
      }
      return { dir, entries };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** True when something accepts a TCP connection at the URL's host and port within `ms`. */
export function answers(url: string, ms = 1000): Promise<boolean> {
  const target = new URL(url);
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(ms, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * Finds the sandbox of `cwd` (see the module's comment). With `probe` (the default) a live process must
 * also accept connections on its port, which tells a sandbox from a process that took over its pid.
 */
export async function discoverSandbox(cwd: string, options: { probe?: boolean } = {}): Promise<Discovery> {
  const found = readSandboxEntries(cwd);
  if (!found) return { kind: 'none' };
  const judged = await Promise.all(
    found.entries.map(async (entry): Promise<FoundEntry> => {
      if (!isAlive(entry.pid)) return { ...entry, state: 'process-gone' };
      if (options.probe !== false && !(await answers(entry.listen))) return { ...entry, state: 'not-answering' };
      return { ...entry, state: 'live' };
    }),
  );
  return decide(found.dir, judged);
}

/** {@link discoverSandbox} without the port probe, for callers that cannot wait (a pid check only). */
export function discoverSandboxSync(cwd: string): Discovery {
  const found = readSandboxEntries(cwd);
  if (!found) return { kind: 'none' };
  return decide(
    found.dir,
    found.entries.map((entry) => ({ ...entry, state: isAlive(entry.pid) ? 'live' : 'process-gone' })),
  );
}

function decide(dir: string, entries: FoundEntry[]): Discovery {
  const live = entries.filter((e) => e.state === 'live');
  if (live.length === 1) return { kind: 'found', dir, entry: live[0]! };
  if (live.length > 1) return { kind: 'ambiguous', dir, entries: live };
  return { kind: 'gone', dir, stale: entries };
}

/**
 * The sandbox a command uses when no base URL is configured: the one live entry, or undefined when nothing
 * was ever started here (the caller uses the default URL). Throws when the folder's sandbox is gone (exit
 * 4) or when several run (exit 2), saying what to do. Entries whose process is gone are deleted.
 */
export function sandboxOf(discovery: Discovery, cwd: string): FoundEntry | undefined {
  if (discovery.kind === 'none') return undefined;
  if (discovery.kind === 'found') return discovery.entry;
  const where = relative(cwd, discovery.dir) === '' ? 'this folder' : discovery.dir;
  const pass = 'pass --base-url <url> (or set PAYLINK_BASE_URL) to use another sandbox';
  if (discovery.kind === 'ambiguous') {
    const list = discovery.entries.map((e) => `${e.url} (database ${e.db}, pid ${e.pid})`).join('; ');
    throw new UsageError(`${discovery.entries.length} sandboxes run from ${where}: ${list}. Not guessing which: pass --base-url <url> (or set PAYLINK_BASE_URL).`);
  }
  for (const entry of discovery.stale) if (entry.state === 'process-gone') removeSandboxEntry(entry.path, entry.pid);
  if (discovery.stale.length === 0) {
    throw new UnreachableError(`No sandbox is running for ${where}: the sandboxes started here (${join(discovery.dir, SANDBOXES_DIR)}) have stopped. Start one with \`paylink sandbox\`, or ${pass}.`);
  }
  const list = discovery.stale
    .map((e) => `${e.url} (database ${e.db}, pid ${e.pid}: ${e.state === 'process-gone' ? 'the process is gone' : 'its port does not answer'})`)
    .join('; ');
  throw new UnreachableError(`The sandbox started in ${where} is not running any more: ${list}. Start it again with \`paylink sandbox\`, or ${pass}.`);
}
