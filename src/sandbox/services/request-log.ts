/**
 * The request log: every API and hosted-page request with its response, card data masked, in SQLite,
 * bounded to the newest {@link RequestLogOptions.capacity} rows, read with filters, or followed by long
 * polling on `since`.
 *
 * Answering a request only appends a reference to an in-memory window; the window is masked and written to
 * SQLite in one batch when the sandbox is idle for a moment, at least every {@link MAX_DELAY_MS}, and
 * before any read. Since the table keeps only the newest rows, rows that would be pruned before anyone
 * could read them are never written: under load this keeps the log off the hot path (it used to cost a
 * third of the GET throughput). The price: a `kill -9` can lose the last second of log rows, never an
 * answered request's data.
 */
import { realTimers, type TimerHandle, type Timers } from '../domain/timers.js';
import type { LoggedRequestAnswer, ObservedRequest, RequestObserver, RouteTarget } from '../domain/observed.js';
import type { Store } from '../store/group-commit.js';

/** What the request log uses: its rows, the write queue, and the configured size bound. */
export interface RequestLogDeps {
  readonly store: Store;
  /** When entries arrive and the flush and long-poll waits (domain/timers.ts); Node's when absent. */
  readonly timers?: Timers | undefined;
  readonly requestLog: RequestLogRepository;
  readonly config: { readonly requestLogMaxBytes?: number | undefined };
}
import { isoUtcMs } from '../domain/clock.js';
import { DEFAULT_LOG_MAX_BYTES } from '../domain/defaults.js';
import { cutText, maskedJson, maskedJsonText, maskEncoded, maskQuery, maskText } from '../domain/mask.js';
import { decodeRequestRow, type DecodedRequestRow, type RequestFilter, type RequestLogRepository, type RequestLogRow } from '../store/request-log.js';

export type { RequestFilter } from '../store/request-log.js';

/** Wait before writing again when the database was busy. */
const RETRY_MS = 1000;
/** Quiet time after which the window is written. */
const IDLE_MS = 200;
/** Longest a row waits in memory under sustained load. */
const MAX_DELAY_MS = 1000;
/**
 * Text held in memory at most. Small on purpose: a row held in memory for more than a few tens of
 * milliseconds is promoted to V8's old generation and becomes garbage there. With 1 MiB that garbage alone
 * grew the heap by about 20 MB under a POST load; 128 KiB (about a hundred rows) does not.
 */
const MAX_WINDOW_BYTES = 128 * 1024;
/**
 * The pace the log writes at, at most, on average: a full window per this many milliseconds (512 KiB of
 * text a second). Writes draw on a budget that refills at that pace and holds one full window: a window is
 * written when it is full and the budget is not spent; otherwise the oldest unwritten rows give way. A short
 * burst is logged whole, while a load test is logged as a sample (about a hundred rows per full window).
 */
const FULL_FLUSH_MS = 250;
/** Bytes of budget gained per millisecond (see {@link FULL_FLUSH_MS}). */
const BUDGET_PER_MS = MAX_WINDOW_BYTES / FULL_FLUSH_MS;
/**
 * A second in which more than this much text arrived (twice what the log writes in a second) is a load
 * test's: the next second the window is {@link LOAD_WINDOW_BYTES}. A second under it restores the full window.
 */
const LOAD_BYTES_PER_SECOND = 2 * MAX_WINDOW_BYTES * (1000 / FULL_FLUSH_MS);
/**
 * The window under a load (see {@link LOAD_BYTES_PER_SECOND}): an eighth of {@link MAX_WINDOW_BYTES}. The
 * budget is the same, so the log keeps the same share of the requests, written eight times as often in
 * smaller batches. Every row in the window survives the collections of V8's young generation that happen
 * while it waits; with the full window that copying cost a POST load about 3 µs per request (0.51 against
 * 0.34 ms per collection, measured with --trace-gc). A stream near the log's own pace (a script, a seeding
 * job) keeps the full window, whose room rides out its unevenness.
 */
const LOAD_WINDOW_BYTES = MAX_WINDOW_BYTES / 8;

/** What the window keeps of a request: references to texts that exist anyway, nothing masked yet. */
interface WindowEntry {
  seq: number;
  entry: ObservedRequest;
  bytes: number;
}

export interface RequestLogOptions {
  /**
   * Rows kept; older ones are pruned.
   * @default 10000
   */
  capacity?: number;
  /**
   * Characters of path, request and response the log keeps at most (about as many bytes); the oldest rows
   * go first. Bodies over {@link MAX_BODY_CHARS} are kept truncated, so one row is never large.
   * @default 33554432 (32 MiB)
   */
  maxBytes?: number;
}

/** A request or response body longer than this is stored cut here, with a marker saying how long it was. */
export const MAX_BODY_CHARS = 16 * 1024;
/** Most characters of rows one listing answers (the newest first kept); the rest is paged with `before`/`since`. */
const MAX_LISTING_CHARS = 4 * 1024 * 1024;

/**
 * A body's masked JSON text, at most about {@link MAX_BODY_CHARS} characters: strings are cut before they
 * are masked (so masking a megabyte costs no more than masking the part kept), and what is still too long
 * is kept as a JSON string of its first {@link MAX_BODY_CHARS} characters and a marker.
 */
function bounded(masked: string | undefined): string | undefined {
  if (masked === undefined || masked.length <= MAX_BODY_CHARS) return masked;
  return JSON.stringify(cutText(masked, MAX_BODY_CHARS));
}

/** The cut {@link bounded} applies to each string of a body before masking it. */
const BODY_LIMIT = { maxString: MAX_BODY_CHARS };

/** One request of the log as `GET /__sandbox/requests` answers it: the stored row, its time in ISO 8601. */
export type LoggedRequest = LoggedRequestAnswer;

/** A route's name and parameters, the parameters masked like the path they come from (a card number as an id). */
function maskedRoute(route: RouteTarget): RouteTarget {
  const params: Record<string, string> = {};
  for (const key in route.params) params[key] = maskText(cutText(route.params[key]!, MAX_BODY_CHARS));
  return { name: route.name, params };
}

/** Requests that are the log's own readers or the dashboard: logging them would drown everything else. */
function isQuiet(entry: ObservedRequest): boolean {
  if (entry.kind === 'asset') return true;
  if (entry.method !== 'GET' && entry.method !== 'HEAD') return false;
  return entry.path === '/' || entry.path === '/favicon.ico' || /^\/__sandbox(\/|$)/i.test(entry.path);
}

export class RequestLog {
  private readonly rows: RequestLogRepository;
  private readonly capacity: number;
  private window: WindowEntry[] = [];
  /** Index of the oldest entry of `window` still to write (dropped entries are before it). */
  private head = 0;
  private windowBytes = 0;
  private nextSeq: number;
  private lastEntryAt = 0;
  /** Bytes the log may still write (below zero after a large write), as of {@link budgetAt} (see {@link FULL_FLUSH_MS}). */
  private budget = MAX_WINDOW_BYTES;
  private budgetAt = 0;
  private oldestEntryAt = 0;
  private timer: TimerHandle | undefined;
  private waiters = new Set<() => void>();
  /** The text that arrived since {@link secondFrom}, and whether the second before was a load's. */
  private secondFrom = 0;
  private secondBytes = 0;
  private loaded = false;
  private closed = false;
  private readonly maxBytes: number;
  /** Sequence number and size of every stored row, oldest first from {@link sizesHead}. */
  private sizes: Array<[number, number]>;
  private sizesHead = 0;
  private storedBytes = 0;

  private readonly timers: Timers;

  constructor(
    private readonly sandbox: RequestLogDeps,
    options: RequestLogOptions = {},
  ) {
    this.timers = sandbox.timers ?? realTimers;
    this.capacity = options.capacity ?? 10_000;
    this.maxBytes = options.maxBytes ?? sandbox.config.requestLogMaxBytes ?? DEFAULT_LOG_MAX_BYTES;
    this.rows = sandbox.requestLog;
    this.nextSeq = this.rows.lastSeq();
    this.sizes = this.rows.sizes();
    for (const [, bytes] of this.sizes) this.storedBytes += bytes;
  }

  /** The observer to register with `observe()`: appends to the window; cheap, never throws, never awaited. */
  readonly observer: RequestObserver = (entry) => {
    if (this.closed || isQuiet(entry)) return;
    const bytes = 256 + (entry.requestJson?.length ?? 0) + (entry.responseJson?.length ?? 0) + entry.query.length;
    const now = this.timers.now();
    if (this.head === this.window.length) this.oldestEntryAt = now;
    // The entry itself, not a copy: it holds texts that exist anyway (the pipeline keeps a parsed body only
    // where there is no text), so a copy would only be one more object per request for the collector.
    this.window.push({ seq: ++this.nextSeq, entry, bytes });
    this.windowBytes += bytes;
    this.lastEntryAt = now;
    if (now - this.secondFrom >= 1000 || now < this.secondFrom) {
      // The second that ended decides (a longer gap was a quiet second; a wall clock set back starts over).
      this.loaded = now - this.secondFrom < 2000 && this.secondBytes > LOAD_BYTES_PER_SECOND;
      this.secondFrom = now;
      this.secondBytes = 0;
    }
    this.secondBytes += bytes;
    const maxBytes = this.loaded ? LOAD_WINDOW_BYTES : MAX_WINDOW_BYTES;
    if (this.windowBytes > maxBytes && this.budgetLeft(now) > 0) this.flush();
    // Only the newest `capacity` rows are kept, so older unwritten ones can go at once.
    while (this.window.length - this.head > this.capacity || (this.windowBytes > maxBytes && this.window.length - this.head > 1)) {
      this.windowBytes -= this.window[this.head]!.bytes;
      this.window[this.head] = undefined as unknown as WindowEntry;
      this.head += 1;
    }
    if (this.head > 4096 && this.head * 2 > this.window.length) {
      this.window = this.window.slice(this.head);
      this.head = 0;
    }
    if (this.timer === undefined) this.arm(IDLE_MS);
    this.wake();
  };

  /** The write budget as of `now`: refilled since it was last counted, up to one full window. */
  private budgetLeft(now: number): number {
    // A wall clock set back refills nothing (and takes nothing away).
    this.budget = Math.min(MAX_WINDOW_BYTES, this.budget + Math.max(0, now - this.budgetAt) * BUDGET_PER_MS);
    this.budgetAt = now;
    return this.budget;
  }

  private arm(ms: number): void {
    this.timer = this.timers.setTimeout(this.onTimer, ms).unref();
  }

  private readonly onTimer = (): void => {
    this.timer = undefined;
    if (this.head === this.window.length) return;
    const now = this.timers.now();
    const quietFor = now - this.lastEntryAt;
    const waited = now - this.oldestEntryAt;
    if (quietFor < IDLE_MS && waited < MAX_DELAY_MS) {
      this.arm(Math.min(IDLE_MS - quietFor, MAX_DELAY_MS - waited));
      return;
    }
    this.flush();
  };

  /**
   * Masks and writes the window to SQLite (in the current group commit); reads call it first. When the
   * database is busy (another process holds its write lock) the window is kept and written later; this runs
   * from a timer, so it never throws.
   */
  flush(): void {
    if (this.head === this.window.length) return;
    const entries = this.window;
    const from = this.head;
    const lastSeq = this.nextSeq;
    const written = this.sandbox.store.writeDeferred(() => {
      for (let i = from; i < entries.length; i++) this.insert(entries[i]!);
      this.prune(lastSeq);
    });
    if (!written) {
      if (this.timer === undefined && !this.closed) this.arm(RETRY_MS);
      return;
    }
    // Every write draws on the budget, a read's too (it writes what a burst would otherwise have written).
    this.budget = this.budgetLeft(this.timers.now()) - this.windowBytes;
    // Entries observed while writing (none: the write is synchronous) would be after `entries.length`.
    this.window = this.window === entries ? [] : this.window.slice(entries.length);
    this.head = 0;
    this.windowBytes = 0;
  }

  /** Deletes the oldest rows until the log holds at most `capacity` rows and `maxBytes` characters. */
  private prune(lastSeq: number): void {
    let upTo = lastSeq - this.capacity;
    while (this.sizesHead < this.sizes.length) {
      const [seq, bytes] = this.sizes[this.sizesHead]!;
      if (seq > upTo && this.storedBytes <= this.maxBytes) break;
      upTo = Math.max(upTo, seq);
      this.storedBytes -= bytes;
      this.sizesHead += 1;
    }
    if (this.sizesHead > 1024 && this.sizesHead * 2 > this.sizes.length) {
      this.sizes = this.sizes.slice(this.sizesHead);
      this.sizesHead = 0;
    }
    if (upTo > 0) this.rows.deleteUpTo(upTo);
  }

  private insert({ seq, entry }: WindowEntry): void {
    try {
      let request = `{"kind":${JSON.stringify(entry.kind)}`;
      if (entry.query.length > 0) request += `,"query":${JSON.stringify(maskQuery(cutText(entry.query, MAX_BODY_CHARS)))}`;
      const body = bounded(entry.requestJson !== undefined ? maskedJsonText(entry.requestJson, BODY_LIMIT) : maskedJson(entry.requestBody, BODY_LIMIT));
      if (body !== undefined) request += `,"body":${body}`;
      if (entry.location !== undefined) request += `,"location":${JSON.stringify(maskEncoded(cutText(entry.location, MAX_BODY_CHARS)))}`;
      if (entry.client !== undefined) request += `,"client":${JSON.stringify(entry.client)}`;
      // A boolean only: whether an Authorization header came, never the credentials.
      if (entry.authorization !== undefined) request += `,"authorization":${entry.authorization ? 'true' : 'false'}`;
      if (entry.fault !== undefined) request += `,"fault":${JSON.stringify(entry.fault)}`;
      if (entry.route !== undefined) request += `,"route":${JSON.stringify(maskedRoute(entry.route))}`;
      request += '}';
      const response =
        bounded(entry.responseJson !== undefined ? maskedJsonText(entry.responseJson, BODY_LIMIT) : maskedJson(entry.responseBody, BODY_LIMIT)) ?? null;
      const path = maskEncoded(cutText(entry.path, MAX_BODY_CHARS));
      const bytes = path.length + request.length + (response?.length ?? 0);
      this.rows.insert({
        seq,
        at: entry.startedAt,
        method: entry.method,
        // A card number in the path (`{api}/payments/4242...`) is masked like one in a body.
        path,
        status: entry.status,
        business_id: entry.businessId ?? null,
        duration_ms: Math.round(entry.durationMs * 100) / 100,
        request,
        response,
      });
      this.sizes.push([seq, bytes]);
      this.storedBytes += bytes;
    } catch (error) {
      // One row that cannot be masked or written (say, JSON nested too deeply) must not cost the others.
      console.error(`paylink: request log row ${seq} (${entry.method} ${entry.path}) was not written:`, (error as Error).message);
    }
  }

  /** Rows matching `filter`: after `since` oldest first, else the newest `limit` (still oldest first). */
  list(filter: RequestFilter = {}): LoggedRequest[] {
    this.flush();
    const rows = this.rows.list(filter);
    // At most MAX_LISTING_CHARS of rows: the newest (or, following with `since`, the oldest) first kept.
    let total = 0;
    let kept = 0;
    const newestFirst = filter.since === undefined;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[newestFirst ? rows.length - 1 - i : i]!;
      total += row.path.length + (row.request?.length ?? 0) + (row.response?.length ?? 0);
      if (total > MAX_LISTING_CHARS && kept > 0) break;
      kept += 1;
    }
    const page = kept === rows.length ? rows : newestFirst ? rows.slice(rows.length - kept) : rows.slice(0, kept);
    return page.map(toLogged);
  }

  /**
   * Long polling: the rows after `filter.since`, waiting up to `waitMs` for at least one to arrive. Answers
   * an empty list when none came (or the sandbox is closing).
   */
  async follow(filter: RequestFilter & { since: number }, waitMs: number): Promise<LoggedRequest[]> {
    const timers = this.timers;
    const deadline = timers.now() + waitMs;
    for (;;) {
      const rows = this.list(filter);
      const left = deadline - timers.now();
      if (rows.length > 0 || left <= 0 || this.closed) return rows;
      await new Promise<void>((resolve) => {
        const done = () => {
          timers.clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = timers.setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  /** Rows and characters stored (rows still in memory not counted), and the row bound. */
  size(): { rows: number; bytes: number; maxRows: number } {
    return { rows: this.sizes.length - this.sizesHead, bytes: this.storedBytes, maxRows: this.capacity };
  }

  /** The newest sequence number handed out (0 when the log never had a row). */
  lastSeq(): number {
    return this.nextSeq;
  }

  /** Deletes every row (answers how many); call inside `store.write`. Sequence numbers keep growing, so followers go on. */
  clearSync(): number {
    const unwritten = this.window.length - this.head;
    this.window = [];
    this.head = 0;
    this.windowBytes = 0;
    this.sizes = [];
    this.sizesHead = 0;
    this.storedBytes = 0;
    return this.rows.clear() + unwritten;
  }

  /**
   * After the stored rows were replaced or deleted behind the log (a snapshot restore, a business reset):
   * takes the stored rows' sizes again and wakes followers. Rows still in the window stay to be written.
   * Sequence numbers keep growing (a restore does not wind them back), so a follower's `since` stays valid.
   */
  reload(): void {
    this.sizes = this.rows.sizes();
    this.sizesHead = 0;
    this.storedBytes = 0;
    for (const [, bytes] of this.sizes) this.storedBytes += bytes;
    this.nextSeq = Math.max(this.nextSeq, this.rows.lastSeq());
    this.wake();
  }

  /** Writes what is left and ends waiting followers (the sandbox is closing). */
  close(): void {
    this.flush();
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    if (this.waiters.size === 0) return;
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const done of waiting) done();
  }
}

function toLogged(row: RequestLogRow): LoggedRequest {
  const decoded = decodeRequestRow(row);
  return { ...decoded, at: isoUtcMs(decoded.at) };
}
