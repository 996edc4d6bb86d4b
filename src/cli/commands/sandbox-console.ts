/**
 * The live console of `paylink sandbox` on a terminal: one line per request the sandbox answered and per
 * webhook delivery it sent, as they happen (docs/cli.md, "The live console"). It follows the sandbox's own
 * request log in this process, so what it prints is what `paylink logs` shows: card data already masked,
 * the dashboard's and the log readers' own requests left out. Quiet with `--quiet`, and in `--json` mode
 * or when stdout is not a terminal (a CI log keeps the banner only).
 */
import type { Ui } from '../ui.js';
import { formatEntry, type LogEntry } from '../log-lines.js';

/** Seconds each wait on the log lasts before it is asked again (the console stops between two). */
const WAIT_MS = 25_000;

/** Whether the console runs for this invocation: a terminal on stdout, neither `--quiet` nor `--json`. */
export function wantsConsole(ui: Ui): boolean {
  return ui.streams.stdout.isTTY === true && ui.options.quiet !== true && ui.options.json !== true;
}

/** The ids a request made or named: the link, checkout, payment or token of its answer, or a delivery's event and payment. */
export function idsOf(entry: LogEntry): string[] {
  if (entry.kind === 'webhook') {
    const d = (entry.request ?? {}) as { event?: unknown; payment?: unknown };
    return [d.event, d.payment].filter((v): v is string => typeof v === 'string' && v !== '');
  }
  const body = (entry.response as { body?: Record<string, unknown> } | undefined)?.body;
  if (body === undefined || body === null || typeof body !== 'object') return [];
  const field = (object: unknown, key: string) => (object !== null && typeof object === 'object' ? (object as Record<string, unknown>)[key] : undefined);
  const ids = [field(body.link, 'linkId'), field(body.checkout, 'checkoutId'), field(body.transaction, 'id'), field(body.token, 'tokenId')];
  return [...new Set(ids.filter((v): v is string => typeof v === 'string' && v !== '' && !entry.path.includes(v)))];
}

/** One console line: the `paylink logs` line with the ids the request made. */
export function consoleLine(entry: LogEntry, ui: Ui): string {
  const ids = idsOf(entry);
  return ids.length === 0 ? formatEntry(entry, ui) : `${formatEntry(entry, ui)} ${ui.color.cyan(ids.join(' '))}`;
}

/** What the console reads of the sandbox's request log (services/request-log.ts), handed in by sandbox.ts. */
export interface FollowedLog {
  lastSeq(): number;
  follow(filter: { since: number; limit: number }, waitMs: number): Promise<LogEntry[]>;
}

/**
 * Prints the log's new rows until the answered stop function is called, before the sandbox closes. Starts
 * after the rows already there (a `--seed` run's requests are summed up by the banner).
 */
export function startConsole(log: FollowedLog, ui: Ui): () => void {
  let since = log.lastSeq();
  let stopped = false;
  void (async () => {
    while (!stopped) {
      let rows: LogEntry[];
      try {
        rows = await log.follow({ since, limit: 1000 }, WAIT_MS);
      } catch (error) {
        if (!stopped) ui.warn(`live console stopped: ${(error as Error).message}`);
        return;
      }
      if (stopped) return;
      for (const row of rows) {
        ui.line(consoleLine(row, ui));
        since = Math.max(since, row.seq);
      }
    }
  })();
  return () => {
    stopped = true;
  };
}
