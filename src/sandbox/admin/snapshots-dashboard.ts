/**
 * The dashboard's Snapshots page (`/__sandbox/dashboard/snapshots`): list, save, restore, delete. Behind
 * the admin token like the rest of the dashboard; the forms post back here and redirect to the page with
 * a notice (post/redirect/get).
 */
import { formatClockOffset } from '../domain/clock.js';
import { readForm } from '../http/request.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import { invalidValue } from '../errors.js';
import { renderSnapshots } from '../../pages/dashboard/snapshots.js';
import { SNAPSHOT_NAME } from '../services/admin-snapshots.js';

const PAGE = '/__sandbox/dashboard/snapshots';

const HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

const NOTICES: Record<string, (name: string) => string> = {
  saved: (name) => `Saved snapshot ${name}.`,
  restored: (name) => `Restored snapshot ${name}: everything written since it was saved is gone.`,
  deleted: (name) => `Deleted snapshot ${name}.`,
};

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function page(req: RouteRequest): Reply {
  const { sandbox, query } = req;
  const { location, snapshots } = sandbox.services.snapshots.list();
  const done = query.get('done') ?? '';
  const name = query.get('name') ?? '';
  const notice = NOTICES[done] !== undefined && SNAPSHOT_NAME.test(name) ? NOTICES[done](name) : undefined;
  const clock = sandbox.services.admin.clock();
  return Reply.html(
    200,
    renderSnapshots({
      title: 'Snapshots',
      section: 'snapshots',
      clock: { now: clock.now, offset: formatClockOffset(clock.offsetMs), frozen: clock.frozen, action: '/__sandbox/dashboard/clock', back: PAGE },
      notice,
      location,
      snapshots: snapshots.map((s) => ({ name: s.name, size: size(s.bytes), savedAt: s.savedAt })),
      action: PAGE,
    }),
    HEADERS,
  );
}

function nameOf(value: string | null | undefined): string {
  if (value === null || value === undefined || !SNAPSHOT_NAME.test(value)) {
    throw invalidValue('name', 'Use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter, digit or "_".');
  }
  return value;
}

function back(done: string, name: string): Reply {
  return Reply.redirect(`${PAGE}?done=${done}&name=${encodeURIComponent(name)}`, 303);
}

async function save(req: RouteRequest): Promise<Reply> {
  const form = await readForm(req.event.node.req);
  const name = nameOf(form.get('name'));
  req.sandbox.services.snapshots.save(name);
  return back('saved', name);
}

function act(kind: 'restore' | 'delete') {
  return async (req: RouteRequest): Promise<Reply> => {
    const sandbox: SandboxView = req.sandbox;
    await readForm(req.event.node.req);
    const name = nameOf(req.params.name);
    if (kind === 'restore') {
      sandbox.services.snapshots.restore(name);
      return back('restored', name);
    }
    sandbox.services.snapshots.delete(name);
    return back('deleted', name);
  };
}

export const snapshotDashboardRoutes: Route[] = [
  { route: 'dashboard.snapshots', handler: page },
  { route: 'dashboard.snapshots.save', handler: save },
  { route: 'dashboard.snapshots.restore', handler: act('restore') },
  { route: 'dashboard.snapshots.delete', handler: act('delete') },
];
