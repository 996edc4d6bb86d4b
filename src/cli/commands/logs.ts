/**
 * `paylink logs`: the sandbox's request log (`GET /__sandbox/requests`), filtered by path, status and
 * business; `--follow` keeps printing new requests as they arrive (long polling on `since`), one JSON
 * document per line with `--json`.
 */
import type { Run } from '../command-spec.js';
import type { logs as spec } from './logs.spec.js';
import { adminOk, type AdminConnection } from '../client.js';
import type { Ui } from '../ui.js';
import { formatEntry, type LogEntry } from '../log-lines.js';

/** What `GET /__sandbox/requests` answers in its envelope's body. */
interface RequestLogPage {
  requests: LogEntry[];
  lastSeq: number;
}

export interface LogsOptions {
  path?: string | undefined;
  /** `402` or `4xx`. */
  status?: string | undefined;
  businessId?: string | undefined;
  method?: string | undefined;
  /** @default 50 */
  limit?: number | undefined;
  follow?: boolean | undefined;
  /** Print request and response bodies under each line. */
  bodies?: boolean | undefined;
  /** Ends `--follow` (Ctrl-C in the CLI, the test's abort in tests). */
  signal?: AbortSignal | undefined;
  /**
   * Seconds each long poll waits on the sandbox.
   * @default 25
   */
  waitSeconds?: number | undefined;
  /** Called once `follow` has its starting position: a request made after this is printed (tests wait on it). */
  onReady?: (() => void) | undefined;
}

function query(options: LogsOptions, extra: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  const add = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') params.set(key, String(value));
  };
  add('path', options.path);
  add('status', options.status);
  add('businessId', options.businessId);
  add('method', options.method);
  for (const [key, value] of Object.entries(extra)) add(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Marks the entries that the advisor names as evidence of a finding (`GET /__sandbox/advice`). A sandbox
 * without the advisor (an older paylink, another deployment) leaves the entries as they are.
 */
async function markFindings(conn: AdminConnection, entries: LogEntry[], options: LogsOptions): Promise<void> {
  if (entries.length === 0) return;
  let findings: Array<{ check: string; evidence: Array<{ seq?: number }> }>;
  try {
    const query = options.businessId ? `?businessId=${encodeURIComponent(options.businessId)}` : '';
    findings = (await adminOk<{ body: { findings: typeof findings } }>(conn, 'GET', `/__sandbox/advice${query}`, undefined, { signal: options.signal })).body
      .findings;
  } catch {
    return;
  }
  const bySeq = new Map<number, string[]>();
  for (const f of findings) {
    for (const e of f.evidence) {
      if (e.seq === undefined) continue;
      const list = bySeq.get(e.seq) ?? [];
      if (!list.includes(f.check)) list.push(f.check);
      bySeq.set(e.seq, list);
    }
  }
  for (const entry of entries) {
    const checks = bySeq.get(entry.seq);
    if (checks) entry.findings = checks;
  }
}

function print(entries: LogEntry[], ui: Ui, options: LogsOptions): void {
  for (const entry of entries) {
    if (ui.options.json) {
      ui.streams.stdout.write(`${JSON.stringify(entry)}\n`);
      continue;
    }
    ui.line(formatEntry(entry, ui));
    if (options.bodies) {
      if (entry.request !== undefined) ui.line(ui.color.dim(`  > ${JSON.stringify(entry.request)}`));
      if (entry.response !== undefined) ui.line(ui.color.dim(`  < ${JSON.stringify(entry.response)}`));
    }
  }
}

/**
 * Prints the newest matching requests; with `follow`, keeps printing new ones until `signal` aborts.
 * Resolves with every entry printed.
 */
export async function runLogs(conn: AdminConnection, ui: Ui, options: LogsOptions = {}): Promise<LogEntry[]> {
  const limit = options.limit ?? 50;
  const first = await adminOk<{ body: RequestLogPage }>(conn, 'GET', `/__sandbox/requests${query(options, { limit })}`);
  const seen: LogEntry[] = [...first.body.requests];
  await markFindings(conn, seen, options);
  if (!options.follow) {
    if (ui.options.json) ui.json(seen);
    else if (seen.length === 0) ui.info('No requests logged yet (or none match the filters).');
    else print(seen, ui, options);
    return seen;
  }
  print(seen, ui, options);
  ui.info('Following the request log; Ctrl-C to stop.');
  let since = first.body.lastSeq;
  const wait = options.waitSeconds ?? 25;
  options.onReady?.();
  while (!options.signal?.aborted) {
    let envelope: { body: RequestLogPage };
    try {
      envelope = await adminOk<{ body: RequestLogPage }>(conn, 'GET', `/__sandbox/requests${query(options, { since, wait, limit: 1000 })}`, undefined, {
        timeoutMs: (wait + 10) * 1000,
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) break;
      throw error;
    }
    if (options.signal?.aborted) break;
    const fresh = envelope.body.requests;
    await markFindings(conn, fresh, options);
    print(fresh, ui, options);
    seen.push(...fresh);
    since = envelope.body.lastSeq;
  }
  return seen;
}

/** `paylink logs` as the CLI runs it: Ctrl-C ends `--follow` cleanly (exit 0) instead of killing the process. */
export async function logsUntilInterrupted(conn: AdminConnection, ui: Ui, options: Omit<LogsOptions, 'signal'> = {}): Promise<LogEntry[]> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    return await runLogs(conn, ui, { ...options, signal: controller.signal });
  } finally {
    process.off('SIGINT', stop);
  }
}

/** `paylink logs`: the newest requests, then, with `--follow`, new ones until Ctrl-C. */
export const logsCommand: Run<typeof spec> = (_args, flags, ctx) =>
  logsUntilInterrupted(ctx.admin, ctx.ui, {
    path: flags.path,
    status: flags.status,
    businessId: flags.business,
    method: flags.method,
    limit: flags.limit,
    follow: flags.follow,
    bodies: flags.bodies,
  });
