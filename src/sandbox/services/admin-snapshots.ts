/**
 * Snapshots as the admin API and the dashboard ask for them: list, save, restore and delete
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
import { isoUtcMs } from '../domain/clock.js';
import { invalidValue, notFound } from '../errors.js';
import { HOLDER_KEY } from '../store/lock.js';
import {
  DEFAULT_SNAPSHOTS_MAX_BYTES,
  SNAPSHOT_NAME,
  SnapshotNotFoundError,
  SnapshotSpaceError,
  SnapshotUnusableError,
  type SnapshotInfo,
} from '../store/snapshots.js';
import { clockView, type ClockView } from './admin-clock.js';
import { TOKEN_SECRET_KEY } from './tokens.js';
import type { Deps } from './deps.js';

export { SNAPSHOT_NAME };

/**
 * Secrets in `meta`, left out of every snapshot (so a snapshot can be copied or shared): the webhook
 * signing secret, the hosted-form token key and the token fingerprint key.
 */
export const SECRETS_LEFT_OUT: ReadonlySet<string> = new Set(['formTokens.secret', 'webhooks.secret', TOKEN_SECRET_KEY]);

/** Meta values a restore leaves as they are: this process's lock, its hookId, and the running sandbox's secrets. */
export const KEPT_ON_RESTORE: ReadonlySet<string> = new Set([HOLDER_KEY, 'webhooks.hookId', ...SECRETS_LEFT_OUT]);

/** What snapshots use: the copies, the request log (flushed into them), and what the sandbox holds in memory. */
export type SnapshotDeps = Pick<Deps, 'store' | 'log' | 'clock' | 'snapshots' | 'events' | 'exactMeta' | 'afterRestore' | 'config'>;

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

/** The snapshots kept for this sandbox and where. */
export function listSnapshots(sandbox: SnapshotDeps): { location: string; snapshots: SnapshotView[] } {
  return { location: sandbox.snapshots.location, snapshots: sandbox.snapshots.list().map(view) };
}

/** Saves the whole state under `name` (replacing one of that name). */
export function saveSnapshot(sandbox: SnapshotDeps, name: string): { snapshot: SnapshotView; location: string; durationMs: number } {
  const started = performance.now();
  // Rows of the request log still in memory go into the database, and so into the copy.
  sandbox.log.flush();
  let info: SnapshotInfo;
  try {
    info = sandbox.snapshots.save(name, sandbox.exactMeta(), SECRETS_LEFT_OUT, sandbox.config.snapshotsMaxBytes ?? DEFAULT_SNAPSHOTS_MAX_BYTES);
  } catch (error) {
    throw snapshotError(error, name);
  }
  return { snapshot: view(info), location: sandbox.snapshots.location, durationMs: elapsed(started) };
}

/** Restores the snapshot `name` in one transaction and makes what is held in memory follow it. */
export function restoreSnapshot(sandbox: SnapshotDeps, name: string): { restored: string; durationMs: number; clock: ClockView } {
  const started = performance.now();
  const log = sandbox.log;
  log.flush();
  let meta: Map<string, unknown>;
  try {
    meta = sandbox.snapshots.restore(name, KEPT_ON_RESTORE);
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
  if (error instanceof SnapshotUnusableError || error instanceof SnapshotSpaceError) return invalidValue('name', error.message);
  return error;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** Deletes the snapshot `name`; 404 when there is none. */
export function deleteSnapshot(sandbox: SnapshotDeps, name: string): { deleted: string } {
  if (!sandbox.snapshots.delete(name)) throw notFound(`Snapshot "${name}"`);
  return { deleted: name };
}
