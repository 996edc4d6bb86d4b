/**
 * `paylink logs`: the sandbox's request log (`GET /__sandbox/requests`), filtered by path, status and
 * business; `--follow` keeps printing new requests as they arrive (long polling on `since`), one JSON
 * document per line with `--json`.
 */
import type { Command } from 'commander';
import type { LoggedRequest } from '../../sandbox/admin/request-log.js';
import { UsageError } from '../errors.js';
import { adminConnectionOf, adminOk, type AdminConnection, type AdminFlags } from '../fixtures/admin-api.js';
import type { Ui } from '../ui.js';

/** A logged request as the sandbox answers it (card data already masked by the sandbox): the wire type. */
export type LogEntry = LoggedRequest;

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

/** One line for people: time, method, path, status, duration, business, the error message when failing. */
export function formatEntry(entry: LogEntry, ui: Ui): string {
  const time = entry.at.slice(11, 23);
  const status = entry.status >= 500 ? ui.color.red(String(entry.status)) : entry.status >= 400 ? ui.color.yellow(String(entry.status)) : ui.color.green(String(entry.status));
  const path = entry.query ? `${entry.path}?${entry.query}` : entry.path;
  const error = (entry.response as { body?: { error?: { message?: string } } } | undefined)?.body?.error?.message;
  const business = entry.businessId ? ui.color.dim(` ${entry.businessId}`) : '';
  return `${ui.color.dim(time)} ${entry.method.padEnd(4)} ${path} ${status} ${ui.color.dim(`${Math.round(entry.durationMs)}ms`)}${business}${error ? `  ${error}` : ''}`;
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
  const first = await adminOk(conn, 'GET', `/__sandbox/requests${query(options, { limit })}`);
  const seen: LogEntry[] = [...(first.body.requests as LogEntry[])];
  if (!options.follow) {
    if (ui.options.json) ui.json(seen);
    else if (seen.length === 0) ui.info('No requests logged yet (or none match the filters).');
    else print(seen, ui, options);
    return seen;
  }
  print(seen, ui, options);
  ui.info('Following the request log; Ctrl-C to stop.');
  let since = first.body.lastSeq as number;
  const wait = options.waitSeconds ?? 25;
  while (!options.signal?.aborted) {
    let envelope;
    try {
      envelope = await adminOk(conn, 'GET', `/__sandbox/requests${query(options, { since, wait, limit: 1000 })}`, undefined, { timeoutMs: (wait + 10) * 1000, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) break;
      throw error;
    }
    if (options.signal?.aborted) break;
    const fresh = envelope.body.requests as LogEntry[];
    print(fresh, ui, options);
    seen.push(...fresh);
    since = envelope.body.lastSeq as number;
  }
  return seen;
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError(`--limit: expected a whole number from 1 to 1000, got "${value}".`);
  return n;
}

function parseStatus(value: string): string {
  if (!/^([1-5]\d\d|[1-5]xx)$/i.test(value)) throw new UsageError(`--status: expected a status such as 402 or a class such as 4xx, got "${value}".`);
  return value.toLowerCase();
}

export function registerLogs(program: Command, ui: () => Ui): void {
  program
    .command('logs')
    .description("Show the sandbox's request log (card data masked); --follow streams new requests")
    .option('-f, --follow', 'keep printing requests as they arrive')
    .option('--path <text>', 'only requests whose path contains this text')
    .option('--status <code>', 'only this status (402) or class (4xx)', parseStatus)
    .option('--business <id>', 'only requests of this business id')
    .option('--method <method>', 'only this HTTP method')
    .option('-n, --limit <n>', 'how many of the newest requests to show first', parseLimit, 50)
    .option('--bodies', 'print request and response bodies too')
    .option('--admin-token <token>', 'admin token of a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)')
    .addHelpText('after', '\nExamples:\n  $ paylink logs\n  $ paylink logs --follow --status 4xx\n  $ paylink logs --path paymentlinks --business shop-1 --json')
    .action(async (options: { follow?: boolean; path?: string; status?: string; business?: string; method?: string; limit: number; bodies?: boolean }, command: Command) => {
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      try {
        await runLogs(adminConnectionOf(command.optsWithGlobals<AdminFlags>()), ui(), {
          path: options.path,
          status: options.status,
          businessId: options.business,
          method: options.method,
          limit: options.limit,
          follow: options.follow,
          bodies: options.bodies,
          signal: controller.signal,
        });
      } finally {
        process.off('SIGINT', stop);
      }
    });
}
