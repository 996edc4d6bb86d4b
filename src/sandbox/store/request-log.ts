import type { Statement } from 'better-sqlite3';
import type { LoggedRequest } from '../domain/observed.js';
import type { Db } from './db.js';

/** One row of table `request_log`, as written and as read. */
export interface RequestLogRow {
  seq: number;
  /** Epoch ms. */
  at: number;
  method: string;
  path: string;
  status: number;
  business_id: string | null;
  duration_ms: number;
  /** JSON: `{ kind, query?, body?, location?, client?, authorization?, fault? }`, card data masked. */
  request: string | null;
  /** JSON of the response body, masked. */
  response: string | null;
}

/** A row read back: its `request` JSON opened into the fields it packs (the log's one entry type). */
export type DecodedRequestRow = LoggedRequest;

function parseStored(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Opens a stored row: the one reader of the `{kind, query?, body?, location?, client?}` the request log writes. */
export function decodeRequestRow(row: RequestLogRow): DecodedRequestRow {
  // Written by the request log service only: the fields are the logged request's own.
  const packed = parseStored(row.request) as
    | {
        kind?: LoggedRequest['kind'];
        query?: string;
        body?: unknown;
        location?: string;
        client?: LoggedRequest['client'];
        authorization?: boolean;
        fault?: LoggedRequest['fault'];
        route?: LoggedRequest['route'];
      }
    | undefined;
  const decoded: DecodedRequestRow = {
    seq: row.seq,
    at: row.at,
    method: row.method,
    path: row.path,
    query: packed?.query ?? '',
    status: row.status,
    kind: packed?.kind ?? 'api',
    businessId: row.business_id,
    durationMs: row.duration_ms,
  };
  if (packed?.body !== undefined) decoded.request = packed.body;
  if (packed?.location !== undefined) decoded.location = packed.location;
  if (packed?.client !== undefined) decoded.client = packed.client;
  if (typeof packed?.authorization === 'boolean') decoded.authorization = packed.authorization;
  if (packed?.fault !== undefined) decoded.fault = packed.fault;
  if (packed?.route !== undefined) decoded.route = packed.route;
  const response = parseStored(row.response);
  if (response !== undefined) decoded.response = response;
  return decoded;
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

/** The rows of the request log (table `request_log`); the buffering in front of it is `services/request-log.ts`'s. */
export class RequestLogRepository {
  private readonly insertStmt;
  private readonly pruneStmt;
  private readonly clearStmt;
  private readonly lastSeqStmt;
  private readonly countUpToStmt;
  /** The filtered SELECT, one statement per combination of filters (prepared once, not per request). */
  private readonly queries = new Map<string, Statement<unknown[]>>();

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      'INSERT INTO request_log (seq, at, method, path, status, business_id, duration_ms, request, response) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.pruneStmt = db.prepare('DELETE FROM request_log WHERE seq <= ?');
    this.clearStmt = db.prepare('DELETE FROM request_log');
    this.lastSeqStmt = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'request_log'").pluck();
    this.countUpToStmt = db.prepare('SELECT count(*) FROM request_log WHERE seq <= ?').pluck();
  }

  insert(row: RequestLogRow): void {
    this.insertStmt.run(row.seq, row.at, row.method, row.path, row.status, row.business_id, row.duration_ms, row.request, row.response);
  }

  /** Deletes the rows up to and including `seq`. */
  deleteUpTo(seq: number): void {
    this.pruneStmt.run(seq);
  }

  /** Deletes every row and answers how many there were. Sequence numbers are not reused. */
  clear(): number {
    return this.clearStmt.run().changes;
  }

  /**
   * Every row's sequence number and size in characters (path, request and response), oldest first: read once
   * at start so the log can be held to a size in bytes (services/request-log.ts). The table is bounded, so is this.
   */
  sizes(): Array<[seq: number, bytes: number]> {
    return this.db
      .prepare('SELECT seq, length(path) + coalesce(length(request), 0) + coalesce(length(response), 0) FROM request_log ORDER BY seq')
      .raw()
      .all() as Array<[number, number]>;
  }

  /** How many rows the table holds up to and including `seq` (the advisor checks its copy against it). */
  countUpTo(seq: number): number {
    return this.countUpToStmt.get(seq) as number;
  }

  /** The largest sequence number the table has handed out (0 when it never had a row). */
  lastSeq(): number {
    return (this.lastSeqStmt.get() as number | undefined) ?? 0;
  }

  /** Rows matching `filter`, oldest first: after `since`, else the newest `limit`. */
  list(filter: RequestFilter = {}): RequestLogRow[] {
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
      stmt = this.db.prepare(`SELECT * FROM request_log ${clause} ORDER BY seq ${after ? 'ASC' : 'DESC'} LIMIT ?`);
      this.queries.set(key, stmt);
    }
    const rows = stmt.all(...args, Math.min(Math.max(filter.limit ?? 100, 1), 1000)) as RequestLogRow[];
    if (!after) rows.reverse();
    return rows;
  }
}
