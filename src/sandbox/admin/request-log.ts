/**
 * The request log: every API and hosted-page request with its response, card data masked, in SQLite,
 * bounded to the newest {@link RequestLogOptions.capacity} rows. Rows are written through the group
 * commit (never awaited by the request) and read with filters, or followed by long polling on `since`.
 */
import type { Statement } from 'better-sqlite3';
import type { ObservedRequest, RequestObserver } from '../app.js';
import type { Sandbox } from '../context.js';
import { isoUtc } from '../domain/clock.js';
import { maskedJson, maskedJsonText, maskQuery } from './mask.js';

export interface RequestLogOptions {
  /**
   * Rows kept; older ones are pruned.
   * @default 10000
   */
  capacity?: number;
  /**
   * Inserts between two prunes (one DELETE each time, inside the same group commit).
   * @default 500
   */
  pruneEvery?: number;
}

/** One logged request, as `GET /__sandbox/requests` answers it. */
export interface LoggedRequest {
  seq: number;
  at: string;
  method: string;
  path: string;
  query: string;
  status: number;
  kind: string;
  businessId: string | null;
  durationMs: number;
  request?: unknown;
  response?: unknown;
}

export interface RequestFilter {
  /** Substring of the path, any letter case. */
  path?: string | undefined;
  /** Exact status (`402`) or a class (`4xx`). */
  status?: string | undefined;
  businessId?: string | undefined;
  method?: string | undefined;
  /** Only rows after this sequence number, oldest first; without it, the newest rows. */
  since?: number | undefined;
  /** Only rows before this sequence number (paging back); ignored with `since`. */
  before?: number | undefined;
  /**
   * At most this many rows.
   * @default 100
   */
  limit?: number | undefined;
}

interface Row {
  seq: number;
  at: number;
  method: string;
  path: string;
  status: number;
  business_id: string | null;
  duration_ms: number;
  request: string | null;
  response: string | null;
}

/** Requests that are the log's own readers or the dashboard: logging them would drown everything else. */
function isQuiet(entry: ObservedRequest): boolean {
  if (entry.kind === 'asset') return true;
  if (entry.method !== 'GET' && entry.method !== 'HEAD') return false;
  return entry.path === '/' || entry.path === '/favicon.ico' || /^\/__sandbox(\/|$)/i.test(entry.path);
}

export class RequestLog {
  private readonly insertStmt;
  private readonly pruneStmt;
  private readonly clearStmt;
  private readonly lastSeqStmt;
  private readonly queries = new Map<string, Statement<unknown[]>>();
  private readonly capacity: number;
  private readonly pruneEvery: number;
  private sinceLastPrune = 0;
  private waiters = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly sandbox: Sandbox,
    options: RequestLogOptions = {},
  ) {
    this.capacity = options.capacity ?? 10_000;
    this.pruneEvery = options.pruneEvery ?? 500;
    const db = sandbox.db;
    this.insertStmt = db.prepare(
      'INSERT INTO request_log (at, method, path, status, business_id, duration_ms, request, response) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.pruneStmt = db.prepare('DELETE FROM request_log WHERE seq <= ?');
    this.clearStmt = db.prepare('DELETE FROM request_log');
    this.lastSeqStmt = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'request_log'").pluck();
  }

  /** The observer to register with `observe()`: cheap, never throws, never awaited by the request. */
  readonly observer: RequestObserver = (entry) => {
    if (this.closed || isQuiet(entry)) return;
    // Deferred: no savepoint, promise or commit of its own per request (the bench's GET target).
    this.sandbox.store.writeDeferred(() => {
      let request = `{"kind":${JSON.stringify(entry.kind)}`;
      if (entry.query.length > 0) request += `,"query":${JSON.stringify(maskQuery(entry.query))}`;
      const body = entry.requestJson !== undefined ? maskedJsonText(entry.requestJson, entry.requestBody) : maskedJson(entry.requestBody);
      if (body !== undefined) request += `,"body":${body}`;
      request += '}';
      const response = (entry.responseJson !== undefined ? maskedJsonText(entry.responseJson, entry.responseBody) : maskedJson(entry.responseBody)) ?? null;
      const info = this.insertStmt.run(entry.startedAt, entry.method, entry.path, entry.status, entry.businessId ?? null, Math.round(entry.durationMs * 100) / 100, request, response);
      if (++this.sinceLastPrune >= this.pruneEvery) {
        this.sinceLastPrune = 0;
        this.pruneStmt.run(Number(info.lastInsertRowid) - this.capacity);
      }
      this.wake();
    });
  };

  /** Rows matching `filter`: after `since` oldest first, else the newest `limit` (still oldest first). */
  list(filter: RequestFilter = {}): LoggedRequest[] {
    const where: string[] = [];
    const args: Array<string | number> = [];
    let key = '';
    if (filter.path) {
      where.push("path LIKE ? ESCAPE '\\'");
      args.push(`%${filter.path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      key += 'p';
    }
    if (filter.status) {
      const cls = /^([1-5])xx$/i.exec(filter.status);
      if (cls) {
        where.push('status BETWEEN ? AND ?');
        args.push(Number(cls[1]) * 100, Number(cls[1]) * 100 + 99);
        key += 'c';
      } else {
        where.push('status = ?');
        args.push(Number(filter.status));
        key += 's';
      }
    }
    if (filter.businessId) {
      where.push('business_id = ?');
      args.push(filter.businessId);
      key += 'b';
    }
    if (filter.method) {
      where.push('method = ?');
      args.push(filter.method.toUpperCase());
      key += 'm';
    }
    const after = filter.since !== undefined;
    if (after) {
      where.push('seq > ?');
      args.push(filter.since!);
      key += 'a';
    } else if (filter.before !== undefined) {
      where.push('seq < ?');
      args.push(filter.before);
      key += 'z';
    }
    let stmt = this.queries.get(key);
    if (!stmt) {
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      stmt = this.sandbox.db.prepare(`SELECT * FROM request_log ${clause} ORDER BY seq ${after ? 'ASC' : 'DESC'} LIMIT ?`);
      this.queries.set(key, stmt);
    }
    const rows = stmt.all(...args, Math.min(Math.max(filter.limit ?? 100, 1), 1000)) as Row[];
    if (!after) rows.reverse();
    return rows.map(toLogged);
  }

  /**
   * Long polling: the rows after `filter.since`, waiting up to `waitMs` for at least one to arrive. Answers
   * an empty list when none came (or the sandbox is closing).
   */
  async follow(filter: RequestFilter & { since: number }, waitMs: number): Promise<LoggedRequest[]> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const rows = this.list(filter);
      const left = deadline - Date.now();
      if (rows.length > 0 || left <= 0 || this.closed) return rows;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  /** The newest sequence number handed out (0 when the log never had a row). */
  lastSeq(): number {
    return (this.lastSeqStmt.get() as number | undefined) ?? 0;
  }

  /** Deletes every row (answers how many); call inside `store.write`. Sequence numbers keep growing, so followers go on. */
  clearSync(): number {
    return this.clearStmt.run().changes;
  }

  /** Ends waiting followers (the sandbox is closing). */
  close(): void {
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

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toLogged(row: Row): LoggedRequest {
  const request = parseJson(row.request) as { kind?: string; query?: string; body?: unknown } | undefined;
  const entry: LoggedRequest = {
    seq: row.seq,
    at: isoUtc(row.at),
    method: row.method,
    path: row.path,
    query: request?.query ?? '',
    status: row.status,
    kind: request?.kind ?? 'api',
    businessId: row.business_id,
    durationMs: row.duration_ms,
  };
  if (request?.body !== undefined) entry.request = request.body;
  const response = parseJson(row.response);
  if (response !== undefined) entry.response = response;
  return entry;
}

const logs = new WeakMap<Sandbox, RequestLog>();

/** The request log of a sandbox (one per sandbox, made on first use). */
export function requestLogOf(sandbox: Sandbox): RequestLog {
  let log = logs.get(sandbox);
  if (!log) {
    log = new RequestLog(sandbox);
    logs.set(sandbox, log);
  }
  return log;
}
