/**
 * Snapshots as admin resources: `GET /__sandbox/snapshots` lists them, `POST /__sandbox/snapshots {name}`
 * saves one, `POST /__sandbox/snapshots/:name/restore` and `/:name/delete` restore and delete it
 * (store/snapshots.ts holds how; docs/testing.md and docs/cli.md say what a restore brings back).
 *
 * A restore brings back everything the database holds: links, checkouts, payments, tokens, events and
 * their deliveries, webhook endpoints, the request log, the clock and the seeded id position. What the
 * sandbox keeps in memory follows it: the read caches are dropped, the clock and the id position are the
 * snapshot's, the request log's window (flushed into the replaced state first) is empty, and the delivery
 * worker and waiting followers are woken to read the restored outbox.
 *
 * Webhook deliveries pending at restore time: those of the replaced state are dropped with it, never sent
 * (their payments no longer exist); those pending in the snapshot go out again (at least once: a receiver
 * may get an event it already had, with the same event id). An attempt in flight when the restore runs is
 * recorded only if its delivery exists in the restored outbox (its sequence numbers keep growing across a
 * restore, so a number names the same delivery in both states or is absent from one).
 */
import { Sandbox } from '../context.js';
import { envelope } from '../http/envelope.js';
import { requireString, type JsonObject } from '../http/fields.js';
import type { Route, RouteRequest } from '../http/router.js';
import { invalidValue, notFound, RESULTS } from '../errors.js';
import { isoUtcMs } from '../domain/clock.js';
import { SNAPSHOT_NAME, SnapshotNotFoundError, SnapshotUnusableError, type SnapshotInfo } from '../store/snapshots.js';
import { requestLogOf } from '../services/request-log.js';
import { clockView, type ClockView } from '../services/admin-clock.js';

/** A snapshot as the admin API answers it. */
export interface SnapshotView {
  name: string;
  bytes: number;
  /** When it was saved, ISO 8601 UTC (wall clock). */
  savedAt: string;
}

function view(info: SnapshotInfo): SnapshotView {
  return { name: info.name, bytes: info.bytes, savedAt: isoUtcMs(info.savedAt) };
}

const NAME_HINT = 'Use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter, digit or "_".';

function snapshotName(value: unknown, path: string): string {
  const name = requireString(value, path, { max: 64 });
  if (!SNAPSHOT_NAME.test(name)) throw invalidValue(path, NAME_HINT);
  return name;
}

/** The snapshots kept for this sandbox and where. */
export function listSnapshots(sandbox: Sandbox): { location: string; snapshots: SnapshotView[] } {
  return { location: sandbox.snapshots.location, snapshots: sandbox.snapshots.list().map(view) };
}

/** Saves the whole state under `name` (replacing one of that name). */
export function saveSnapshot(sandbox: Sandbox, name: string): { snapshot: SnapshotView; location: string; durationMs: number } {
  const started = performance.now();
  // Rows of the request log still in memory go into the database, and so into the copy.
  requestLogOf(sandbox).flush();
  const info = sandbox.snapshots.save(name, sandbox.exactMeta());
  return { snapshot: view(info), location: sandbox.snapshots.location, durationMs: elapsed(started) };
}

/** Restores the snapshot `name` in one transaction and makes what is held in memory follow it. */
export function restoreSnapshot(sandbox: Sandbox, name: string): { restored: string; durationMs: number; clock: ClockView } {
  const started = performance.now();
  const log = requestLogOf(sandbox);
  log.flush();
  let meta: Map<string, unknown>;
  try {
    meta = sandbox.snapshots.restore(name, Sandbox.KEPT_ON_RESTORE);
  } catch (error) {
    throw snapshotError(error, name);
  }
  sandbox.afterRestore(meta);
  log.reload();
  sandbox.events.restored();
  return { restored: name, durationMs: elapsed(started), clock: clockView(sandbox) };
}

function snapshotError(error: unknown, name: string): unknown {
  if (error instanceof SnapshotNotFoundError) return notFound(`Snapshot "${name}"`);
  if (error instanceof SnapshotUnusableError) return invalidValue('name', error.message);
  return error;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

async function postSnapshot(req: RouteRequest) {
  const json: JsonObject = await req.json();
  const name = snapshotName(json.name, 'name');
  return envelope(req.sandbox, RESULTS.ok, saveSnapshot(req.sandbox, name));
}

function restore({ sandbox, params }: RouteRequest) {
  const name = snapshotName(params.name, 'name');
  return envelope(sandbox, RESULTS.ok, restoreSnapshot(sandbox, name));
}

function remove({ sandbox, params }: RouteRequest) {
  const name = snapshotName(params.name, 'name');
  if (!sandbox.snapshots.delete(name)) throw notFound(`Snapshot "${name}"`);
  return envelope(sandbox, RESULTS.ok, { deleted: name });
}

export const snapshotRoutes: Route[] = [
  { method: 'GET', path: '/__sandbox/snapshots', kind: 'admin', handler: ({ sandbox }) => envelope(sandbox, RESULTS.ok, listSnapshots(sandbox)) },
  { method: 'POST', path: '/__sandbox/snapshots', kind: 'admin', handler: postSnapshot },
  { method: 'POST', path: '/__sandbox/snapshots/:name/restore', kind: 'admin', handler: restore },
  { method: 'POST', path: '/__sandbox/snapshots/:name/delete', kind: 'admin', handler: remove },
];
