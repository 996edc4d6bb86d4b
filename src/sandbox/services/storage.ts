/**
 * What the sandbox's stores hold and what bounds them (docs/reliability.md, "Retention"), as
 * `GET /__sandbox/health` and the dashboard show it, with a warning when the disk is about to fill or the
 * snapshots near their limit.
 */
import { DEFAULT_SNAPSHOTS_MAX_BYTES, DISK_RESERVE_BYTES } from '../store/snapshots.js';
import type { Deps } from './deps.js';
import { DEFAULT_EVENTS_KEPT } from './events.js';
import { DEFAULT_LOG_MAX_BYTES } from '../domain/defaults.js';

export type StorageDeps = Pick<Deps, 'eventStore' | 'formTokens' | 'snapshots' | 'log' | 'config'>;

/** Below this much free disk space, the sandbox warns (a save still leaves {@link DISK_RESERVE_BYTES}). */
export const LOW_DISK_BYTES = 4 * DISK_RESERVE_BYTES;

export interface StorageView {
  /** Bytes of the database's used pages. */
  databaseBytes: number;
  /**
   * Free bytes on the disk the snapshots (and a database file) are on, when asked for (it changes from one
   * call to the next; `/__sandbox/health` leaves it out and warns instead); null where the platform cannot tell.
   */
  diskFreeBytes?: number | null;
  events: { count: number; kept: number };
  deliveries: { count: number; pending: number };
  requestLog: { rows: number; bytes: number; maxRows: number; maxBytes: number };
  formTokens: { count: number };
  snapshots: { count: number; bytes: number; maxBytes: number };
  /** What is about to fill, when something is; absent otherwise. */
  warnings?: string[];
}

/** Sizes of every store with their bounds, and warnings; `withDisk` adds the free disk space. */
export function storageSizes(deps: StorageDeps, withDisk = false): StorageView {
  const counts = deps.eventStore.counts();
  const snapshots = deps.snapshots.list();
  const snapshotBytes = snapshots.reduce((sum, s) => sum + s.bytes, 0);
  const snapshotsMax = deps.config.snapshotsMaxBytes ?? DEFAULT_SNAPSHOTS_MAX_BYTES;
  const free = deps.snapshots.freeDiskBytes();
  const log = deps.log.size();
  const view: StorageView = {
    databaseBytes: deps.snapshots.databaseBytes(),
    events: { count: counts.events, kept: deps.config.eventsKept ?? DEFAULT_EVENTS_KEPT },
    deliveries: { count: counts.deliveries, pending: counts.pendingDeliveries },
    requestLog: { rows: log.rows, bytes: log.bytes, maxRows: log.maxRows, maxBytes: deps.config.requestLogMaxBytes ?? DEFAULT_LOG_MAX_BYTES },
    formTokens: { count: deps.formTokens.count() },
    snapshots: { count: snapshots.length, bytes: snapshotBytes, maxBytes: snapshotsMax },
  };
  if (withDisk) view.diskFreeBytes = free ?? null;
  const warnings: string[] = [];
  if (free !== undefined && free < LOW_DISK_BYTES) {
    warnings.push(
      `The disk holding ${deps.snapshots.location} has ${mib(free)} free: delete snapshots or free space (saves stop at ${mib(DISK_RESERVE_BYTES)}).`,
    );
  }
  if (snapshotBytes > 0.9 * snapshotsMax)
    warnings.push(`Snapshots take ${mib(snapshotBytes)} of their ${mib(snapshotsMax)}: delete some before the next save is refused.`);
  if (warnings.length > 0) view.warnings = warnings;
  return view;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
}
