/**
 * `paylink snapshot save|restore|list|delete`: saved copies of the whole sandbox state
 * (`/__sandbox/snapshots`). A test suite saves one after its setup and restores it before each test.
 */
import type { Run } from '../command-spec.js';
import type { snapshotDelete as deleteSpec, snapshotList as listSpec, snapshotRestore as restoreSpec, snapshotSave as saveSpec } from './snapshot.spec.js';
import { UsageError } from '../errors.js';
import { adminOk, type AdminConnection } from '../client.js';
import type { Ui } from '../ui.js';

/** A snapshot as the sandbox lists it. */
export interface SnapshotEntry {
  name: string;
  bytes: number;
  savedAt: string;
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** A snapshot name, checked before anything is sent (a usage error, exit 2). */
export function parseSnapshotName(value: string): string {
  if (!NAME.test(value))
    throw new UsageError(`snapshot: "${value}" is not a snapshot name; use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter, digit or "_".`);
  return value;
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export async function snapshotSave(conn: AdminConnection, ui: Ui, name: string): Promise<SnapshotEntry> {
  const envelope = await adminOk(conn, 'POST', '/__sandbox/snapshots', { name });
  const body = envelope.body as { snapshot: SnapshotEntry; location: string; durationMs: number };
  if (ui.options.json) ui.json(body);
  else ui.line(`Saved snapshot ${body.snapshot.name} (${size(body.snapshot.bytes)}, ${body.durationMs} ms) in ${body.location}.`);
  return body.snapshot;
}

export async function snapshotRestore(conn: AdminConnection, ui: Ui, name: string): Promise<void> {
  const envelope = await adminOk(conn, 'POST', `/__sandbox/snapshots/${encodeURIComponent(name)}/restore`, {});
  const body = envelope.body as { restored: string; durationMs: number; clock: { now: string; frozen: boolean } };
  if (ui.options.json) ui.json(body);
  else ui.line(`Restored snapshot ${body.restored} (${body.durationMs} ms); sandbox time ${body.clock.now}${body.clock.frozen ? ' (frozen)' : ''}.`);
}

export async function snapshotList(conn: AdminConnection, ui: Ui): Promise<SnapshotEntry[]> {
  const envelope = await adminOk(conn, 'GET', '/__sandbox/snapshots');
  const body = envelope.body as { location: string; snapshots: SnapshotEntry[] };
  if (ui.options.json) {
    ui.json(body);
  } else if (body.snapshots.length === 0) {
    ui.line(`No snapshots (they would be in ${body.location}). Save one with \`paylink snapshot save <name>\`.`);
  } else {
    const width = Math.max(...body.snapshots.map((s) => s.name.length));
    for (const s of body.snapshots) ui.line(`${s.name.padEnd(width)}  ${size(s.bytes).padStart(8)}  saved ${s.savedAt}`);
  }
  return body.snapshots;
}

export async function snapshotDelete(conn: AdminConnection, ui: Ui, name: string): Promise<void> {
  await adminOk(conn, 'POST', `/__sandbox/snapshots/${encodeURIComponent(name)}/delete`, {});
  if (ui.options.json) ui.json({ deleted: name });
  else ui.line(`Deleted snapshot ${name}.`);
}

export const snapshotSaveCommand: Run<typeof saveSpec> = ({ name }, _flags, ctx) => snapshotSave(ctx.admin, ctx.ui, parseSnapshotName(name));
export const snapshotRestoreCommand: Run<typeof restoreSpec> = ({ name }, _flags, ctx) => snapshotRestore(ctx.admin, ctx.ui, parseSnapshotName(name));
export const snapshotListCommand: Run<typeof listSpec> = (_args, _flags, ctx) => snapshotList(ctx.admin, ctx.ui);
export const snapshotDeleteCommand: Run<typeof deleteSpec> = ({ name }, _flags, ctx) => snapshotDelete(ctx.admin, ctx.ui, parseSnapshotName(name));
