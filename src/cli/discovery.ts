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
 * - none anywhere: the default URL (`http://127.0.0.1:8417`, or the port `PAYLINK_PORT` names), as ever;
 * - exactly one live entry: its URL (and its certificate, for a `--https` sandbox);
 * - entries, none of them live (the process is gone, or its port does not answer): exit 4, naming the
 *   sandbox that is gone and what to do; never the default URL, which may be another project's sandbox;
 * - several live entries: exit 2, naming them; `--base-url` (or `PAYLINK_BASE_URL`) says which.
 * An entry whose process is gone is deleted once reported.
 *
 * Only entries that are ours are trusted (issue 32, item 4: a planted entry must not capture credentials):
 * the `.paylink/sandboxes/` folder and the file belong to the current user and are writable by nobody else,
 * the file is not a symbolic link, its process is the user's own and alive, and its listen URL is on this
 * machine (loopback). Anything else is ignored, and said so. With a probe, the sandbox must also answer
 * `GET /__sandbox/health` with the envelope and the base URL the entry records, sent with no credentials
 * but the entry's own admin token; only then do the commands send theirs. Commands use the entry's listen
 * URL (a `--public-url` or tunnel may not be reachable from here), and its admin token: entries are written
 * with mode 0600 in a 0700 folder, so only their owner reads the token (issue 31, item 10).
 *
 * Each running sandbox also leaves a line in the user's own index of running sandboxes
 * ({@link runningIndexDir}), so that a command run from a folder where no sandbox was started can say which
 * folder the sandbox on the default port came from, and `paylink wait` does not take another project's
 * sandbox for the one being started here (issue 31, item 1).
 *
 * `paylink wait` and anything else that must find "this folder's sandbox" use {@link discoverSandbox}.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { UnreachableError, UsageError } from './errors.js';
import { httpRequest } from './http.js';

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
  /** The admin token the sandbox requires (`--admin-token`, or made for `--public-url`): for its owner's commands. */
  adminToken?: string | undefined;
}

/** An entry as found, with its file and whether its sandbox is there. */
export interface FoundEntry extends SandboxEntry {
  /** The entry's file. */
  path: string;
  /**
   * `live`, or why not: its process is gone, its port does not answer, or what answers there is not the
   * sandbox the entry records (another server took the port, or a file that is not a sandbox's).
   */
  state: 'live' | 'process-gone' | 'not-answering' | 'not-this-sandbox';
}

/** What discovery found for a folder. */
export type Discovery =
  /** No `.paylink/sandboxes/` in the folder or above: nothing started here. */
  (
    | { kind: 'none' }
    /** The one live sandbox of `dir`. */
    | { kind: 'found'; dir: string; entry: FoundEntry }
    /** Sandboxes were started in `dir`, and none of them is there now (`stale` lists those that died). */
    | { kind: 'gone'; dir: string; stale: FoundEntry[] }
    /** Several live sandboxes in `dir`: refusing to guess. */
    | { kind: 'ambiguous'; dir: string; entries: FoundEntry[] }
  ) & {
    /** Entries and folders not trusted, each with why (another user's, writable by others, not loopback...). */
    ignored?: string[] | undefined;
  };

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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Readers trust only a folder nobody else can write to: make an older, looser one ours again.
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  const name = entryName(cwd, entry.db, entry.pid);
  const path = join(dir, `${name}.json`);
  let ca = entry.ca;
  if (certificate !== undefined) {
    ca = join(dir, `${name}.pem`);
    writeFileSync(ca, certificate, { mode: 0o600 });
  }
  const db = entry.db === ':memory:' ? entry.db : resolve(cwd, entry.db);
  const temporary = `${path}.${process.pid}.tmp`;
  // 0600: the entry may hold the admin token, for its owner's commands only.
  writeFileSync(temporary, `${JSON.stringify({ ...entry, db, ...(ca !== undefined ? { ca } : {}) }, null, 2)}\n`, { mode: 0o600 });
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

/** `alive`, `gone`, or `foreign`: a process of another user (pid 1, say), never a sandbox of ours. */
function processState(pid: number): 'alive' | 'gone' | 'foreign' {
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'foreign' : 'gone';
  }
}

/** True for a URL on this machine (127.0.0.0/8, ::1, localhost). */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Why a file or folder is not to be trusted, or undefined when it is the current user's and nobody else
 * may write to it. Where there are no user ids (Windows), only symbolic links are refused.
 */
function ownershipProblem(stat: Stats, what: string): string | undefined {
  if (stat.isSymbolicLink()) return `${what} is a symbolic link`;
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (stat.uid !== uid) return `${what} belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `${what} is writable by other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/** An entry file read and checked, or why it is not used. */
function parseEntry(path: string): SandboxEntry | { problem: string } {
  let text: string;
  try {
    const problem = ownershipProblem(lstatSync(path), 'the file');
    if (problem) return { problem };
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { problem: `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let e: Partial<SandboxEntry>;
  try {
    e = JSON.parse(text) as Partial<SandboxEntry>;
  } catch {
    return { problem: 'not a sandbox entry (not JSON)' };
  }
  if (
    e === null ||
    typeof e !== 'object' ||
    typeof e.url !== 'string' ||
    !/^https?:\/\//.test(e.url) ||
    typeof e.pid !== 'number' ||
    !Number.isInteger(e.pid) ||
    e.pid <= 0
  ) {
    return { problem: 'not a sandbox entry (no url or pid)' };
  }
  const listen = typeof e.listen === 'string' && /^https?:\/\//.test(e.listen) ? e.listen : e.url;
  try {
    if (!isLoopback(listen)) return { problem: `its address ${listen} is not on this machine (pass --base-url to use a sandbox elsewhere)` };
  } catch {
    return { problem: 'not a sandbox entry (bad url)' };
  }
  return {
    url: e.url,
    listen,
    pid: e.pid,
    db: String(e.db ?? ''),
    ca: typeof e.ca === 'string' ? e.ca : undefined,
    ...(typeof e.proxy === 'string' && /^http:\/\/127\.0\.0\.1:\d+$/.test(e.proxy) ? { proxy: e.proxy } : {}),
    ...(typeof e.authority === 'string' ? { authority: e.authority } : {}),
    startedAt: String(e.startedAt ?? ''),
    adminToken: typeof e.adminToken === 'string' && e.adminToken !== '' ? e.adminToken : undefined,
  };
}

/**
 * The nearest folder (`cwd` or above) with `.paylink/sandboxes/`, and its entries that pass the ownership
 * checks (unjudged otherwise); `ignored` says which were left out and why.
 */
export function readSandboxEntries(cwd: string): { dir: string; entries: (SandboxEntry & { path: string })[]; ignored: string[] } | undefined {
  const ignored: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const folder = join(dir, SANDBOXES_DIR);
    if (existsSync(folder)) {
      const problem = ownershipProblem(lstatSync(folder), 'the folder');
      if (problem) {
        // Not ours: as if absent, so a folder above (or the default URL) decides; said, never silent.
        ignored.push(`${folder}: ${problem}`);
      } else {
        const entries: (SandboxEntry & { path: string })[] = [];
        let files = 0;
        for (const name of readdirSync(folder).sort()) {
          if (!name.endsWith('.json')) continue;
          files++;
          const path = join(folder, name);
          const entry = parseEntry(path);
          if ('problem' in entry) {
            ignored.push(`${path}: ${entry.problem}`);
            continue;
          }
          const state = processState(entry.pid);
          if (state === 'foreign') ignored.push(`${path}: its process ${entry.pid} belongs to another user`);
          else entries.push({ ...entry, path });
        }
        // Entries, none of them to trust: as if the folder held none of ours; one above (or none) decides.
        if (entries.length > 0 || files === 0) return { dir, entries, ignored };
      }
    }
    if (dirname(dir) === dir) return ignored.length > 0 ? { dir: '', entries: [], ignored } : undefined;
  }
}

/** True when something accepts a TCP connection at the URL's host and port within `ms` (`paylink doctor`). */
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
 * Whether the sandbox an entry records answers at its listen URL: `GET /__sandbox/health` with no
 * credentials but the entry's own admin token, answering the envelope with the base URL the entry records.
 */
async function identify(entry: SandboxEntry, ms = 2000): Promise<'live' | 'not-answering' | 'not-this-sandbox'> {
  let ca: string | undefined;
  if (entry.ca !== undefined) {
    try {
      ca = readFileSync(entry.ca, 'utf8');
    } catch {
      ca = undefined;
    }
  }
  try {
    const answer = await httpRequest(`${entry.listen.replace(/\/+$/, '')}/__sandbox/health`, {
      headers: { accept: 'application/json', ...(entry.adminToken !== undefined ? { 'x-paylink-admin-token': entry.adminToken } : {}) },
      redirect: 'manual',
      signal: AbortSignal.timeout(ms),
      ca,
    });
    const text = await answer.text();
    if (answer.status !== 200) return 'not-this-sandbox';
    const parsed = JSON.parse(text) as { body?: { status?: unknown; baseUrl?: unknown } } | null;
    const body = parsed?.body;
    return body?.status === 'up' && body.baseUrl === entry.url ? 'live' : 'not-this-sandbox';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return error instanceof SyntaxError
      ? 'not-this-sandbox'
      : code === 'ECONNREFUSED' || (error as Error).name === 'TimeoutError'
        ? 'not-answering'
        : 'not-this-sandbox';
  }
}

/**
 * Finds the sandbox of `cwd` (see the module's comment). With `probe` (the default) a live process must
 * also answer as the sandbox its entry records, which tells a sandbox from a process that took over its
 * pid or its port, and from a planted file.
 */
export async function discoverSandbox(cwd: string, options: { probe?: boolean } = {}): Promise<Discovery> {
  const found = readSandboxEntries(cwd);
  if (!found) return { kind: 'none' };
  const judged = await Promise.all(
    found.entries.map(async (entry): Promise<FoundEntry> => {
      if (processState(entry.pid) === 'gone') return { ...entry, state: 'process-gone' };
      if (options.probe !== false) return { ...entry, state: await identify(entry) };
      return { ...entry, state: 'live' };
    }),
  );
  return decide(found.dir, judged, found.ignored);
}

/** {@link discoverSandbox} without the probe, for callers that cannot wait (a pid check only). */
export function discoverSandboxSync(cwd: string): Discovery {
  const found = readSandboxEntries(cwd);
  if (!found) return { kind: 'none' };
  return decide(
    found.dir,
    found.entries.map((entry) => ({ ...entry, state: processState(entry.pid) === 'alive' ? 'live' : 'process-gone' })),
    found.ignored,
  );
}

function decide(dir: string, entries: FoundEntry[], ignored: string[]): Discovery {
  const extra = ignored.length > 0 ? { ignored } : {};
  // Only untrusted entries, found nowhere else: as if nothing was started here.
  if (dir === '') return { kind: 'none', ...extra };
  const live = entries.filter((e) => e.state === 'live');
  if (live.length === 1) return { kind: 'found', dir, entry: live[0]!, ...extra };
  if (live.length > 1) return { kind: 'ambiguous', dir, entries: live, ...extra };
  return { kind: 'gone', dir, stale: entries, ...extra };
}

const STATE_TEXT: Record<FoundEntry['state'], string> = {
  live: 'running',
  'process-gone': 'the process is gone',
  'not-answering': 'its port does not answer',
  'not-this-sandbox': `what answers at its address is not the sandbox the entry records`,
};

/** Most stopped sandboxes a "not running any more" message names. */
const MAX_STALE_LISTED = 3;

/**
 * The sandbox a command uses when no base URL is configured: the one live entry, or undefined when nothing
 * was ever started here (the caller uses the default URL). Throws when the folder's sandbox is gone (exit
 * 4) or when several run (exit 2), saying what to do. Entries whose process is gone are deleted.
 */
export function sandboxOf(discovery: Discovery, cwd: string): FoundEntry | undefined {
  if (discovery.kind === 'none') return undefined;
  if (discovery.kind === 'found') return discovery.entry;
  const where = relative(cwd, discovery.dir) === '' ? 'this folder' : discovery.dir;
  const ignored = discovery.ignored?.length ? ` Ignored, as not yours to trust: ${discovery.ignored.join('; ')}.` : '';
  const pass = 'pass --base-url <url> (or set PAYLINK_BASE_URL) to use another sandbox';
  if (discovery.kind === 'ambiguous') {
    const list = discovery.entries.map((e) => `${e.url} (database ${e.db}, pid ${e.pid})`).join('; ');
    throw new UsageError(
      `${discovery.entries.length} sandboxes run from ${where}: ${list}. Not guessing which: pass --base-url <url> (or set PAYLINK_BASE_URL).${ignored}`,
    );
  }
  for (const entry of discovery.stale) if (entry.state === 'process-gone') removeSandboxEntry(entry.path, entry.pid);
  if (discovery.stale.length === 0) {
    throw new UnreachableError(
      `No sandbox is running for ${where}: the sandboxes started here (${join(discovery.dir, SANDBOXES_DIR)}) have stopped. Start one with \`paylink sandbox\`, or ${pass}.${ignored}`,
    );
  }
  // The newest few: a folder whose sandboxes were killed many times would otherwise print them all.
  const newest = [...discovery.stale].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const shown = newest.slice(0, MAX_STALE_LISTED);
  const more = newest.length - shown.length;
  const list = `${shown.map((e) => `${e.url} (database ${e.db}, pid ${e.pid}: ${STATE_TEXT[e.state]})`).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
  const [subject, again] =
    newest.length === 1
      ? [`The sandbox started in ${where} is`, 'Start it again']
      : [`The ${newest.length} sandboxes started in ${where} are`, 'Start one again'];
  throw new UnreachableError(`${subject} not running any more: ${list}. ${again} with \`paylink sandbox\`, or ${pass}.${ignored}`);
}

/** The user's own index of running sandboxes: one file per process, `<pid>.json`, naming its folder. */
export function runningIndexDir(): string {
  return join(homedir(), '.cache', 'paylink', 'running');
}

/** Adds a starting sandbox to the user's index ({@link runningIndexDir}); answers the file's path. */
export function recordRunning(folder: string, entry: Pick<SandboxEntry, 'url' | 'listen' | 'pid'>): string | undefined {
  try {
    const dir = runningIndexDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${entry.pid}.json`);
    writeFileSync(path, `${JSON.stringify({ folder: resolve(folder), url: entry.url, listen: entry.listen, pid: entry.pid })}\n`, { mode: 0o600 });
    return path;
  } catch {
    // A home without a writable cache: the sandbox runs all the same, only unnamed to other folders.
    return undefined;
  }
}

/** Removes a sandbox from the user's index. */
export function removeRunning(path: string | undefined): void {
  if (path !== undefined) rmSync(path, { force: true });
}

/** The address part that tells two loopback URLs apart: scheme and port (127.0.0.1, localhost and ::1 alike). */
function loopbackKey(url: string): string | undefined {
  const target = new URL(url);
  return isLoopback(url) ? `${target.protocol}${target.port || (target.protocol === 'https:' ? '443' : '80')}` : undefined;
}

/**
 * The folder the user's running sandbox listening at `url` was started from, when the index knows it
 * (a sandbox of an older paylink, of another user, or started by `startSandbox()` in code is not in it).
 * Entries of processes that are gone are deleted.
 */
export function startedFrom(url: string): string | undefined {
  const key = loopbackKey(url);
  const dir = runningIndexDir();
  if (key === undefined || !existsSync(dir)) return undefined;
  try {
    if (ownershipProblem(lstatSync(dir), 'the folder')) return undefined;
    for (const name of readdirSync(dir)) {
      if (!/^\d+\.json$/.test(name)) continue;
      const path = join(dir, name);
      try {
        if (ownershipProblem(lstatSync(path), 'the file')) continue;
        const e = JSON.parse(readFileSync(path, 'utf8')) as { folder?: unknown; listen?: unknown; pid?: unknown };
        if (typeof e.folder !== 'string' || typeof e.listen !== 'string' || typeof e.pid !== 'number') continue;
        const state = processState(e.pid);
        if (state === 'gone') rmSync(path, { force: true });
        else if (state === 'alive' && loopbackKey(e.listen) === key) return e.folder;
      } catch {
        // A torn or foreign file: skip it.
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** True when `folder` is `cwd` or a folder above it. */
export function isFolderOrAbove(folder: string, cwd: string): boolean {
  const rel = relative(folder, resolve(cwd));
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-z]:/i.test(rel));
}
