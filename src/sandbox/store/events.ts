import type { Statement } from 'better-sqlite3';
import { destinationOf } from '../domain/destinations.js';
import type { EventType, WebhookFaults } from '../domain/events.js';
import type { Db } from './db.js';

export type { AttemptRecord, DeliveryData, DeliveryRow, DeliveryStatus, EndpointRecord, EventRow } from '../domain/webhook-records.js';
import type { AttemptRecord, DeliveryData, DeliveryRow, DeliveryStatus, EndpointRecord, EventRow } from '../domain/webhook-records.js';

/** A due delivery as the worker first sees it. */
export interface DueRef {
  id: number;
  target: string;
  orderKey: string;
  url: string;
  nextAt: number;
}

/** A destination (domain/destinations.ts) with deliveries pending, and when its first one is due. */
export interface PendingDestination {
  destination: string;
  firstDueAt: number;
}

export interface EventFilter {
  businessId?: string | undefined;
  paymentId?: string | undefined;
  type?: string | undefined;
  /** Only events after this sequence number, oldest first; without it, the newest. */
  since?: number | undefined;
  /** Never events after this one (the last committed). */
  upTo?: number | undefined;
  /** @default 50 */
  limit?: number | undefined;
}

interface DeliveryDbRow {
  id: number;
  event_seq: number;
  target: string;
  order_key: string;
  hook_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  next_at: number;
  created_at: number;
  data: string;
}

function deliveryOf(row: DeliveryDbRow): DeliveryRow {
  return {
    id: row.id,
    eventSeq: row.event_seq,
    target: row.target,
    orderKey: row.order_key,
    hookId: row.hook_id,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    nextAt: row.next_at,
    createdAt: row.created_at,
    data: JSON.parse(row.data) as DeliveryData,
  };
}

interface EventDbRow {
  seq: number;
  id: string;
  type: EventType;
  business_id: string;
  payment_id: string;
  created_at: number;
  body: string;
}

function eventOf(row: EventDbRow): EventRow {
  return { seq: row.seq, id: row.id, type: row.type, businessId: row.business_id, paymentId: row.payment_id, createdAt: row.created_at, body: row.body };
}

/**
 * Webhook endpoints, events, deliveries and their attempts (migration 6). Writers run inside
 * `store.write`; events and deliveries are written in the same write as the payment change they report.
 */
export class EventRepository {
  private readonly insertEventStmt;
  private readonly seqBeforeTimeStmt;
  private readonly dueRefsStmt;
  private readonly destinationsStmt;
  private readonly nextDueAfterStmt;
  private readonly insertDeliveryStmt;
  private readonly eventByIdStmt;
  private readonly eventBySeqStmt;
  private readonly lastSeqStmt;
  private readonly earlierPendingStmt;
  private readonly newestPendingStmt;
  private readonly updateDeliveryStmt;
  private readonly deliveriesOfStmt;
  private readonly deliveryStmt;
  private readonly insertAttemptStmt;
  private readonly attemptsOfStmt;
  private readonly cancelForHookStmt;
  private readonly endpointsStmt;
  private readonly insertEndpointStmt;
  private readonly deleteEndpointStmt;
  private readonly recentFindingsStmt;
  private readonly listQueries = new Map<string, Statement<unknown[]>>();
  private readonly retentionCutoffStmt;
  private readonly settledBeforeStmt;
  private readonly deleteAttemptsStmt;
  private readonly deleteDeliveriesStmt;
  private readonly deleteEventsStmt;
  private readonly countsStmt;

  constructor(private readonly db: Db) {
    this.insertEventStmt = db.prepare('INSERT INTO events (seq, id, type, business_id, payment_id, created_at, body) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.insertDeliveryStmt = db.prepare(
      "INSERT INTO deliveries (event_seq, target, order_key, hook_id, url, destination, status, attempts, next_at, created_at, data) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)",
    );
    this.eventByIdStmt = db.prepare('SELECT * FROM events WHERE id = ?');
    this.seqBeforeTimeStmt = db.prepare('SELECT seq FROM events WHERE created_at >= ? ORDER BY seq LIMIT 1').pluck();
    this.eventBySeqStmt = db.prepare('SELECT * FROM events WHERE seq = ?');
    // sqlite_sequence survives a reset, so sequence numbers keep growing and a follower's `since` stays valid.
    this.lastSeqStmt = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck();
    // The pending deliveries' destinations, one index seek each (migration 13's deliveries_destination):
    // the worker picks per destination, so a destination holding any backlog costs one row per pick.
    const destinations = `WITH RECURSIVE d(destination) AS (
        SELECT (SELECT min(destination) FROM deliveries WHERE status = 'pending')
        UNION ALL
        SELECT (SELECT min(destination) FROM deliveries WHERE status = 'pending' AND destination > d.destination) FROM d WHERE d.destination IS NOT NULL
      )`;
    this.destinationsStmt = db.prepare(
      `${destinations} SELECT destination, (SELECT min(next_at) FROM deliveries WHERE status = 'pending' AND destination = d.destination) AS first_due_at FROM d WHERE destination IS NOT NULL`,
    );
    this.nextDueAfterStmt = db
      .prepare(
        `${destinations} SELECT min((SELECT min(next_at) FROM deliveries WHERE status = 'pending' AND destination = d.destination AND next_at > ?)) FROM d WHERE destination IS NOT NULL`,
      )
      .pluck();
    // One destination's due deliveries in due order, through the same index; `+event_seq`: never through the
    // index on event_seq, which would range over every delivery ever made.
    this.dueRefsStmt = db.prepare(
      "SELECT id, target, order_key, url, next_at FROM deliveries WHERE status = 'pending' AND destination = ? AND next_at <= ? AND (next_at, id) > (?, ?) AND +event_seq <= ? ORDER BY next_at, id LIMIT ?",
    );
    this.earlierPendingStmt = db.prepare("SELECT 1 FROM deliveries WHERE status = 'pending' AND target = ? AND order_key = ? AND id < ? LIMIT 1").pluck();
    this.newestPendingStmt = db.prepare(
      "SELECT * FROM deliveries WHERE status = 'pending' AND target = ? AND order_key = ? AND event_seq <= ? ORDER BY id DESC LIMIT 1",
    );
    this.updateDeliveryStmt = db.prepare('UPDATE deliveries SET status = ?, attempts = ?, next_at = ?, data = ? WHERE id = ?');
    this.deliveriesOfStmt = db.prepare('SELECT * FROM deliveries WHERE event_seq = ? ORDER BY id');
    this.deliveryStmt = db.prepare('SELECT * FROM deliveries WHERE id = ?');
    this.insertAttemptStmt = db.prepare('INSERT INTO delivery_attempts (delivery_id, at, data) VALUES (?, ?, ?)');
    this.attemptsOfStmt = db.prepare('SELECT data FROM delivery_attempts WHERE delivery_id = ? ORDER BY id').pluck();
    this.cancelForHookStmt = db.prepare("UPDATE deliveries SET status = 'cancelled' WHERE hook_id = ? AND status = 'pending'");
    this.endpointsStmt = db.prepare('SELECT data FROM webhook_endpoints ORDER BY created_at, rowid').pluck();
    this.insertEndpointStmt = db.prepare('INSERT INTO webhook_endpoints (hook_id, business_id, created_at, data) VALUES (?, ?, ?, ?)');
    this.deleteEndpointStmt = db.prepare('DELETE FROM webhook_endpoints WHERE hook_id = ?');
    this.recentFindingsStmt = db.prepare("SELECT * FROM deliveries WHERE status = 'finding' ORDER BY id DESC LIMIT ?");
    // Retention: the newest `keep` events stay; older ones go once none of their deliveries is pending.
    this.retentionCutoffStmt = db.prepare('SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET ?').pluck();
    this.settledBeforeStmt = db
      .prepare(
        "SELECT seq FROM events WHERE seq <= ? AND NOT EXISTS (SELECT 1 FROM deliveries WHERE event_seq = events.seq AND status = 'pending') ORDER BY seq LIMIT ?",
      )
      .pluck();
    this.deleteAttemptsStmt = db.prepare(
      'DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE event_seq IN (SELECT value FROM json_each(?)))',
    );
    this.deleteDeliveriesStmt = db.prepare('DELETE FROM deliveries WHERE event_seq IN (SELECT value FROM json_each(?))');
    this.deleteEventsStmt = db.prepare('DELETE FROM events WHERE seq IN (SELECT value FROM json_each(?))');
    this.countsStmt = db.prepare(
      "SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM deliveries) AS deliveries, (SELECT count(*) FROM deliveries WHERE status = 'pending' AND id > -1) AS pending",
    );
  }

  // ---- Retention ----

  /**
   * Deletes up to `batch` of the oldest events beyond the newest `keep`, with their deliveries and their
   * attempts, skipping any event with a delivery still pending (it goes once that delivery is delivered or
   * given up). Answers how many events were deleted. Call inside `store.write`.
   */
  pruneSettled(keep: number, batch = 1000): number {
    const cutoff = this.retentionCutoffStmt.get(keep) as number | undefined;
    if (cutoff === undefined) return 0;
    const seqs = this.settledBeforeStmt.all(cutoff, batch) as number[];
    if (seqs.length === 0) return 0;
    const list = JSON.stringify(seqs);
    this.deleteAttemptsStmt.run(list);
    this.deleteDeliveriesStmt.run(list);
    this.deleteEventsStmt.run(list);
    return seqs.length;
  }

  /** How many events and deliveries are stored, and how many deliveries are pending (`/__sandbox/health`). */
  counts(): { events: number; deliveries: number; pendingDeliveries: number } {
    const row = this.countsStmt.get() as { events: number; deliveries: number; pending: number };
    return { events: row.events, deliveries: row.deliveries, pendingDeliveries: row.pending };
  }

  // ---- Endpoints ----

  endpoints(): EndpointRecord[] {
    return (this.endpointsStmt.all() as string[]).map((data) => JSON.parse(data) as EndpointRecord);
  }

  insertEndpoint(endpoint: EndpointRecord): void {
    this.insertEndpointStmt.run(endpoint.hookId, endpoint.businessId, endpoint.createdAt, JSON.stringify(endpoint));
  }

  /** Deletes the endpoint and cancels its pending deliveries; answers whether it existed. */
  deleteEndpoint(hookId: string): boolean {
    const deleted = this.deleteEndpointStmt.run(hookId).changes > 0;
    if (deleted) this.cancelForHookStmt.run(hookId);
    return deleted;
  }

  // ---- Events ----

  /** The largest sequence number handed out (0 when none), deleted events included. */
  lastSeq(): number {
    return (this.lastSeqStmt.get() as number | undefined) ?? 0;
  }

  insertEvent(event: EventRow): void {
    this.insertEventStmt.run(event.seq, event.id, event.type, event.businessId, event.paymentId, event.createdAt, event.body);
  }

  event(id: string): EventRow | undefined {
    const row = this.eventByIdStmt.get(id) as EventDbRow | undefined;
    return row && eventOf(row);
  }

  eventBySeq(seq: number): EventRow | undefined {
    const row = this.eventBySeqStmt.get(seq) as EventDbRow | undefined;
    return row && eventOf(row);
  }

  /** Events matching `filter`, oldest first: after `since`, else the newest `limit`. */
  events(filter: EventFilter = {}): EventRow[] {
    const where: string[] = [];
    const args: Array<string | number> = [];
    let key = '';
    if (filter.businessId) {
      where.push('business_id = ?');
      args.push(filter.businessId);
      key += 'b';
    }
    if (filter.paymentId) {
      where.push('payment_id = ?');
      args.push(filter.paymentId);
      key += 'p';
    }
    if (filter.type) {
      where.push('type = ?');
      args.push(filter.type);
      key += 't';
    }
    if (filter.upTo !== undefined) {
      where.push('seq <= ?');
      args.push(filter.upTo);
      key += 'u';
    }
    const after = filter.since !== undefined;
    if (after) {
      where.push('seq > ?');
      args.push(filter.since!);
      key += 'a';
    }
    let stmt = this.listQueries.get(key);
    if (!stmt) {
      stmt = this.db.prepare(`SELECT * FROM events ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq ${after ? 'ASC' : 'DESC'} LIMIT ?`);
      this.listQueries.set(key, stmt);
    }
    const rows = (stmt.all(...args, Math.min(Math.max(filter.limit ?? 50, 1), 1000)) as EventDbRow[]).map(eventOf);
    if (!after) rows.reverse();
    return rows;
  }

  // ---- Deliveries ----

  insertDelivery(d: Omit<DeliveryRow, 'id' | 'status' | 'attempts'>): number {
    return Number(
      this.insertDeliveryStmt.run(d.eventSeq, d.target, d.orderKey, d.hookId, d.url, destinationOf(d.url), d.nextAt, d.createdAt, JSON.stringify(d.data))
        .lastInsertRowid,
    );
  }

  delivery(id: number): DeliveryRow | undefined {
    const row = this.deliveryStmt.get(id) as DeliveryDbRow | undefined;
    return row && deliveryOf(row);
  }

  /** The sequence number just before the first event created at or after `time`; undefined when none was. */
  seqBeforeTime(time: number): number | undefined {
    const seq = this.seqBeforeTimeStmt.get(time) as number | undefined;
    return seq === undefined ? undefined : seq - 1;
  }

  /** Every destination with deliveries pending, and when its first is due (one index seek each). */
  pendingDestinations(): PendingDestination[] {
    return (this.destinationsStmt.all() as Array<{ destination: string; first_due_at: number }>).map((r) => ({
      destination: r.destination,
      firstDueAt: r.first_due_at,
    }));
  }

  /**
   * Due deliveries to `destination` of events up to `upTo`, in due order after `after`, as references (no
   * data parsed): the worker pages through them past payments waiting on an earlier event.
   */
  dueRefs(destination: string, now: number, upTo: number, after: { nextAt: number; id: number } | undefined, limit: number): DueRef[] {
    const rows = this.dueRefsStmt.all(destination, now, after?.nextAt ?? Number.MIN_SAFE_INTEGER, after?.id ?? 0, upTo, limit) as Array<{
      id: number;
      target: string;
      order_key: string;
      url: string;
      next_at: number;
    }>;
    return rows.map((r) => ({ id: r.id, target: r.target, orderKey: r.order_key, url: r.url, nextAt: r.next_at }));
  }

  /** Whether an earlier delivery to the same target about the same payment is still pending. */
  hasEarlierPending(d: DeliveryRow): boolean {
    return this.earlierPendingStmt.get(d.target, d.orderKey, d.id) !== undefined;
  }

  /** The newest pending delivery to the same target about the same payment (out-of-order fault). */
  newestPending(d: DeliveryRow, upTo: number): DeliveryRow | undefined {
    const row = this.newestPendingStmt.get(d.target, d.orderKey, upTo) as DeliveryDbRow | undefined;
    return row && deliveryOf(row);
  }

  /** The earliest time after `now` a pending delivery is due, if any (one index seek per destination). */
  nextDueAfter(now: number): number | undefined {
    return (this.nextDueAfterStmt.get(now) as number | null) ?? undefined;
  }

  updateDelivery(d: DeliveryRow): void {
    this.updateDeliveryStmt.run(d.status, d.attempts, d.nextAt, JSON.stringify(d.data), d.id);
  }

  deliveriesOf(eventSeq: number): DeliveryRow[] {
    return (this.deliveriesOfStmt.all(eventSeq) as DeliveryDbRow[]).map(deliveryOf);
  }

  /** The newest deliveries a merchant accepted when it had to refuse them. */
  recentFindings(limit = 20): DeliveryRow[] {
    return (this.recentFindingsStmt.all(limit) as DeliveryDbRow[]).map(deliveryOf);
  }

  insertAttempt(attempt: AttemptRecord): void {
    this.insertAttemptStmt.run(attempt.deliveryId, attempt.at, JSON.stringify(attempt));
  }

  attemptsOf(deliveryId: number): AttemptRecord[] {
    return (this.attemptsOfStmt.all(deliveryId) as string[]).map((data) => JSON.parse(data) as AttemptRecord);
  }
}
