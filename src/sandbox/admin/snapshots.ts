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
import { envelope } from '../http/envelope.js';
import { requireString, type JsonObject } from '../http/fields.js';
import type { Route, RouteRequest } from '../http/router.js';
import { invalidValue, RESULTS } from '../errors.js';
import { SNAPSHOT_NAME } from '../services/admin-snapshots.js';

const NAME_HINT = 'Use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter, digit or "_".';

function snapshotName(value: unknown, path: string): string {
  const name = requireString(value, path, { max: 64 });
  if (!SNAPSHOT_NAME.test(name)) throw invalidValue(path, NAME_HINT);
  return name;
}

async function postSnapshot(req: RouteRequest) {
  const json: JsonObject = await req.json();
  const name = snapshotName(json.name, 'name');
  return envelope(req.sandbox, RESULTS.ok, req.sandbox.services.snapshots.save(name));
}

function restore({ sandbox, params }: RouteRequest) {
  const name = snapshotName(params.name, 'name');
  return envelope(sandbox, RESULTS.ok, sandbox.services.snapshots.restore(name));
}

function remove({ sandbox, params }: RouteRequest) {
  const name = snapshotName(params.name, 'name');
  return envelope(sandbox, RESULTS.ok, sandbox.services.snapshots.delete(name));
}

export const snapshotRoutes: Route[] = [
  { route: 'admin.snapshots', handler: ({ sandbox }) => envelope(sandbox, RESULTS.ok, sandbox.services.snapshots.list()) },
  { route: 'admin.snapshots.save', handler: postSnapshot },
  { route: 'admin.snapshots.restore', handler: restore },
  { route: 'admin.snapshots.delete', handler: remove },
];
