/**
 * Snapshots (`/__sandbox/snapshots`) and the per-business reset, over HTTP against a real sandbox on a
 * temporary SQLite file: a restore brings back exactly the saved state while other requests keep arriving,
 * and a business reset leaves every other business's stored rows byte for byte as they were.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ManualTimers, startSandbox } from '../../src/sandbox/index.js';
import { until } from '../helpers/cli.js';
import { eventually, linkRequest, requestJson, uniqueCode, useSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { APPROVE, card, submit } from './hosted-form-helpers.js';

const CARD = { number: '4111111111111111', expiryMonth: '12', expiryYear: '2034', cvv: '123', holderName: 'Ada Lovelace' };

function payment(businessId: string, trackingCode = uniqueCode('snap')) {
  return { action: 'payment', header: { businessId }, body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode }, card: CARD } };
}

function token(businessId: string, number = '5555555555554444') {
  return { header: { businessId }, body: { brandId: number.startsWith('4') ? 1010 : 1020, card: { ...CARD, number } } };
}

/** A link, a card payment and a token (a card the business has not saved yet, or the same token comes back). */
async function createAll(sb: TestSandbox, businessId: string, card = '5555555555554444') {
  const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId }));
  const pay = await sb.post('/gateway/v3/payments', payment(businessId));
  const tok = await sb.post('/gateway/v3/tokens', token(businessId, card));
  expect([link.body.result, pay.body.result, tok.body.result], JSON.stringify([link.body, pay.body, tok.body]).slice(0, 500)).toEqual([0, 0, 0]);
  return { linkId: link.body.body.link.linkId as string, paymentId: pay.body.body.id as string, token: tok.body.body.token as string };
}

async function exists(sb: TestSandbox, businessId: string, ids: { linkId: string; paymentId: string; token: string }) {
  const [link, pay, tok] = await Promise.all([
    sb.get(`/gateway/v3/paymentlinks/${ids.linkId}?businessId=${businessId}`),
    sb.get(`/gateway/v3/payments/${ids.paymentId}?businessId=${businessId}`),
    sb.get(`/gateway/v3/tokens/${ids.token}?businessId=${businessId}`),
  ]);
  // An unknown payment is a bare 404 (no body).
  const ok = (res: { status: number; body?: { result?: number } }) => res.status === 200 && res.body?.result === 0;
  return { link: ok(link), payment: ok(pay), token: ok(tok) };
}

describe('snapshots: save and restore the whole state', () => {
  const sb = useSandbox();

  it('restores links, payments, tokens, events, the clock and the request log to the saved state while other requests keep arriving', async () => {
    const before = await createAll(sb, 'snap-a');
    await sb.post('/__sandbox/clock', { set: '2031-05-01T10:00:00Z', freeze: true });
    const eventsAtSave = (await sb.get('/__sandbox/events?businessId=snap-a')).body.body.events.map((e: { id: string }) => e.id);
    expect(eventsAtSave.length).toBeGreaterThan(0);
    const saved = await sb.post('/__sandbox/snapshots', { name: 'base' });
    expect(saved.body.result, saved.text).toBe(0);
    expect(saved.body.body.snapshot).toMatchObject({ name: 'base' });
    expect(existsSync(`${sb.dbPath}.snapshots/base.db`)).toBe(true);

    // Written after the save: all of it must be gone after the restore.
    const after = await createAll(sb, 'snap-a', '4111111111111111');
    const otherBusiness = await createAll(sb, 'snap-b');
    await sb.post('/__sandbox/clock', { advance: '3d' });
    const marker = uniqueCode('marker');
    await sb.get(`/gateway/v3/paymentlinks/${marker}?businessId=snap-a`);
    const logged = await sb.get(`/__sandbox/requests?path=${marker}`);
    expect(logged.body.body.requests.length, 'the marker request is logged before the restore').toBeGreaterThan(0);

    // Traffic during the restore: what was answered before the restore was sent goes, what is sent after
    // its answer stays; what overlaps may land on either side, but whole.
    let stop = false;
    const traffic: Array<{ sentAt: number; answeredAt: number; id: string }> = [];
    const writer = (async () => {
      while (!stop) {
        const sentAt = performance.now();
        const res = await sb.post('/gateway/v3/payments', payment('snap-c'));
        if (res.body?.result === 0) traffic.push({ sentAt, answeredAt: performance.now(), id: res.body.body.id });
      }
    })();
    await until(() => traffic.length >= 3, 20_000);
    const restoreSent = performance.now();
    const restored = await sb.post('/__sandbox/snapshots/base/restore', {});
    const restoreAnswered = performance.now();
    expect(restored.body.result, restored.text).toBe(0);
    await until(() => traffic.some((t) => t.sentAt > restoreAnswered), 20_000);
    stop = true;
    await writer;

    expect(await exists(sb, 'snap-a', before)).toEqual({ link: true, payment: true, token: true });
    expect(await exists(sb, 'snap-a', after)).toEqual({ link: false, payment: false, token: false });
    expect(await exists(sb, 'snap-b', otherBusiness)).toEqual({ link: false, payment: false, token: false });
    const events = (await sb.get('/__sandbox/events?businessId=snap-a')).body.body.events.map((e: { id: string }) => e.id);
    expect(events.sort()).toEqual([...eventsAtSave].sort());
    expect((await sb.get('/__sandbox/events?businessId=snap-b')).body.body.events).toEqual([]);
    expect((await sb.get('/__sandbox/clock')).body.body).toMatchObject({ now: '2031-05-01T10:00:00.000Z', frozen: true });
    expect((await sb.get(`/__sandbox/requests?path=${marker}`)).body.body.requests).toEqual([]);

    const early = traffic.filter((t) => t.answeredAt < restoreSent);
    const late = traffic.filter((t) => t.sentAt > restoreAnswered);
    expect(early.length, 'traffic answered before the restore').toBeGreaterThan(0);
    expect(late.length, 'traffic sent after the restore').toBeGreaterThan(0);
    for (const t of early)
      expect((await sb.get(`/gateway/v3/payments/${t.id}?businessId=snap-c`)).status, `payment ${t.id} answered before the restore`).toBe(404);
    for (const t of late) {
      expect((await sb.get(`/gateway/v3/payments/${t.id}?businessId=snap-c`)).body.result, `payment ${t.id} sent after the restore`).toBe(0);
      // Its event was made after the restore and is listed.
      expect((await sb.get(`/__sandbox/events?paymentId=${t.id}`)).body.body.events.length).toBe(1);
    }

    const db = new Database(sb.dbPath, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('keeps event and request-log sequence numbers growing across a restore, so a follower cursor stays valid', async () => {
    await sb.post('/__sandbox/snapshots', { name: 'cursor' });
    await createAll(sb, 'snap-d');
    const stream = await sb.get('/__sandbox/events/stream?since=0');
    const cursor = stream.body.body.lastSeq ?? Math.max(...stream.body.body.events.map((e: { seq: number }) => e.seq));
    const logCursor = (await sb.get('/__sandbox/requests?limit=1')).body.body.lastSeq as number;
    await sb.post('/__sandbox/snapshots/cursor/restore', {});
    const made = await createAll(sb, 'snap-d');
    const next = await sb.get(`/__sandbox/events/stream?since=${cursor}`);
    expect(next.body.body.events.map((e: { paymentId: string }) => e.paymentId)).toContain(made.paymentId);
    const logged = await sb.get(`/__sandbox/requests?since=${logCursor}`);
    expect(logged.body.body.requests.some((r: { path: string }) => r.path === '/gateway/v3/tokens')).toBe(true);
  });

  it('undoes an API fault rule added after the save: the stored rule and the one in force are both gone', async () => {
    await sb.post('/__sandbox/snapshots', { name: 'no-faults' });
    const added = await sb.post('/__sandbox/faults', { kind: 'status', status: 503, method: 'POST', path: 'paymentlinks' });
    expect(added.status, added.text).toBe(200);
    expect((await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'snap-f' }))).status).toBe(503);
    await sb.post('/__sandbox/snapshots/no-faults/restore', {});
    expect((await sb.get('/__sandbox/faults')).body.body.faults).toEqual([]);
    expect((await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'snap-f' }))).status).toBe(200);
  });

  it('lists, replaces and deletes snapshots, and answers an unknown or badly named one with a clear error', async () => {
    await sb.post('/__sandbox/snapshots', { name: 'one' });
    await sb.post('/__sandbox/snapshots', { name: 'one' });
    const list = await sb.get('/__sandbox/snapshots');
    expect(list.body.body.location).toBe(`${sb.dbPath}.snapshots`);
    expect(list.body.body.snapshots.filter((s: { name: string }) => s.name === 'one')).toHaveLength(1);
    expect(list.body.body.snapshots[0]).toMatchObject({ bytes: expect.any(Number), savedAt: expect.stringMatching(/^\d{4}-/) });
    expect((await sb.post('/__sandbox/snapshots/one/delete', {})).body.body).toEqual({ deleted: 'one' });
    const gone = await sb.post('/__sandbox/snapshots/one/restore', {});
    expect(gone.status).toBe(404);
    expect(gone.body.body.error.message).toContain('Snapshot "one"');
    expect((await sb.post('/__sandbox/snapshots/one/delete', {})).status).toBe(404);
    for (const name of ['../etc', '', 'a b', '.hidden', 'x'.repeat(65)]) {
      const bad = await sb.post('/__sandbox/snapshots', { name });
      expect(bad.status, name).toBe(400);
      expect(bad.body.body.error.message).toContain('name');
    }
    expect((await sb.post('/__sandbox/snapshots', {})).status).toBe(400);
  });
});

describe('snapshots of a :memory: sandbox', () => {
  it('keeps them in memory and restores them, with the seeded ids going on from the save', async () => {
    const running = await startSandbox({ port: 0, db: ':memory:', seed: 'snapshots' });
    try {
      const post = (path: string, body: unknown) =>
        requestJson(running.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'mem' }));
      const saved = await post('/__sandbox/snapshots', { name: 'seeded' });
      expect(saved.body.body.location).toBe('memory');
      const first = await post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'mem', transaction: { trackingCode: 'same-code' } }));
      const restored = await post('/__sandbox/snapshots/seeded/restore', {});
      expect(restored.body.result, restored.text).toBe(0);
      const list = await requestJson(`${running.url}/__sandbox/links?businessId=mem`);
      expect(list.body.body.items.map((l: { id: string }) => l.id)).not.toContain(first.body.body.link.linkId);
      // The same request after the restore gets the same id: the seeded position is the saved one.
      const again = await post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'mem', transaction: { trackingCode: 'same-code' } }));
      expect(again.body.result, again.text).toBe(0);
      expect(again.body.body.link.linkId).toBe(first.body.body.link.linkId);
      expect((await requestJson(`${running.url}/__sandbox/snapshots`)).body.body.snapshots.map((s: { name: string }) => s.name)).toEqual(['seeded']);
      expect(running.sandbox.unexpectedErrors).toEqual([]);
    } finally {
      await running.close();
    }
  });
});

describe('reset --business: one business only', () => {
  const sb = useSandbox();

  /** Every stored row that is not `businessId`'s, table by table, as text. */
  function othersRows(businessId: string): Record<string, string[]> {
    sb.running.sandbox.store.flush();
    const db = new Database(sb.dbPath, { readonly: true });
    try {
      const rows: Record<string, string[]> = {};
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'meta'")
        .pluck()
        .all() as string[];
      for (const table of tables) {
        const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
        let where = columns.includes('business_id') ? `WHERE business_id IS NOT ?` : 'WHERE ? IS NOT NULL';
        if (table === 'deliveries') where = 'WHERE event_seq NOT IN (SELECT seq FROM events WHERE business_id = ?)';
        if (table === 'delivery_attempts')
          where = 'WHERE delivery_id NOT IN (SELECT d.id FROM deliveries d JOIN events e ON e.seq = d.event_seq WHERE e.business_id = ?)';
        rows[table] = (db.prepare(`SELECT * FROM "${table}" ${where} ORDER BY rowid`).raw().all(businessId) as unknown[][]).map((r) => JSON.stringify(r));
      }
      return rows;
    } finally {
      db.close();
    }
  }

  it('deletes the business links, payments, tokens, events and logged requests and leaves every other business byte-identical', async () => {
    const keep1 = await createAll(sb, 'keep-1');
    const gone = await createAll(sb, 'worker-3');
    await createAll(sb, 'worker-3');
    const keep2 = await createAll(sb, 'keep-2');
    await sb.post('/__sandbox/webhooks', { businessId: 'worker-3', url: 'http://127.0.0.1:9/unreachable' });
    await sb.post('/gateway/v3/payments', payment('worker-3'));
    const answersBefore = [await exists(sb, 'keep-1', keep1), await exists(sb, 'keep-2', keep2)];
    // Settle the request log (the resets' own request is logged as the sandbox's, without a business).
    await sb.get('/__sandbox/requests?limit=1');
    const rowsBefore = othersRows('worker-3');
    expect(rowsBefore.links!.length).toBeGreaterThan(0);

    const reset = await sb.post('/__sandbox/reset?businessId=worker-3', {});
    expect(reset.body.result, reset.text).toBe(0);
    expect(reset.body.body.businessId).toBe('worker-3');
    // Events: the three payments' Transaction.Create and the token's Tokenization.Create.
    expect(reset.body.body.deleted).toMatchObject({ links: 2, payments: 3, tokens: 1, events: 4 });

    expect((await sb.get('/__sandbox/requests?businessId=worker-3')).body.body.requests).toEqual([]);
    const rowsAfter = othersRows('worker-3');
    // Only the request log grew (the reset request itself and the reads above); compare it up to then.
    rowsAfter.request_log = rowsAfter.request_log!.slice(0, rowsBefore.request_log!.length);
    expect(rowsAfter).toEqual(rowsBefore);
    expect([await exists(sb, 'keep-1', keep1), await exists(sb, 'keep-2', keep2)]).toEqual(answersBefore);
    expect(await exists(sb, 'worker-3', gone)).toEqual({ link: false, payment: false, token: false });
    expect((await sb.get('/__sandbox/events?businessId=worker-3')).body.body.events).toEqual([]);
    // The business starts afresh: the same card makes a new token, the same tracking code a new link.
    expect((await sb.post('/gateway/v3/tokens', token('worker-3'))).body.result).toBe(0);
  });

  it('deletes the used form tokens of every hosted form of the business, card redirect payments included', async () => {
    // A card redirect payment: its hosted card form's token is signed for `payment:<id>`.
    const created = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: 'forms-gone' },
      body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('rp'), brandId: 1010, returnUrl: 'https://merchant.example/back' } },
    });
    expect(created.body.result, created.text).toBe(2);
    const path = new URL(created.body.body.redirect.url as string).pathname;
    const paid = await submit(sb, path, card(APPROVE));
    expect(paid.status, paid.html.slice(0, 300)).toBe(303);
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'forms-gone' }));
    const declined = await submit(sb, new URL(link.body.body.link.redirect.url as string).pathname, { action: 'decline' });
    expect(declined.status).toBe(303);
    const tokensOf = () => {
      sb.running.sandbox.store.flush();
      const db = new Database(sb.dbPath, { readonly: true });
      try {
        return db.prepare('SELECT target_id FROM form_tokens ORDER BY target_id').pluck().all() as string[];
      } finally {
        db.close();
      }
    };
    const ids = [`payment:${created.body.body.id}`, `link:${link.body.body.link.linkId}`];
    expect(tokensOf()).toEqual(expect.arrayContaining(ids));

    const reset = await sb.post('/__sandbox/reset?businessId=forms-gone', {});
    expect(reset.body.result, reset.text).toBe(0);
    expect(reset.body.body.deleted.form_tokens).toBe(2);
    expect(tokensOf().filter((t) => ids.includes(t))).toEqual([]);
  });

  it('refuses an empty business id', async () => {
    const res = await sb.post('/__sandbox/reset?businessId=', {});
    expect(res.status).toBe(400);
    expect(res.body.body.error.message).toContain('businessId');
  });
});

describe('the dashboard Snapshots page', () => {
  const sb = useSandbox();
  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(sb.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  it('lists snapshots and saves, restores and deletes them from its forms, refusing a post from another site', async () => {
    const empty = await (await fetch(`${sb.url}/__sandbox/dashboard/snapshots`)).text();
    expect(empty).toContain('No snapshots yet');
    expect(empty).toContain('href="/__sandbox/dashboard/snapshots" aria-current="page"');

    const saved = await form('/__sandbox/dashboard/snapshots', { name: 'from-dashboard' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/__sandbox/dashboard/snapshots?done=saved&name=from-dashboard');
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'dash-snap' }));
    const listed = await (await fetch(`${sb.url}/__sandbox/dashboard/snapshots?done=saved&name=from-dashboard`)).text();
    expect(listed).toContain('data-snapshot="from-dashboard"');
    expect(listed).toContain('Saved snapshot from-dashboard.');

    const foreign = await form('/__sandbox/dashboard/snapshots/from-dashboard/restore', {}, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect((await sb.get(`/__sandbox/links?businessId=dash-snap`)).body.body.total).toBe(1);

    const restored = await form('/__sandbox/dashboard/snapshots/from-dashboard/restore', {});
    expect(restored.headers.get('location')).toBe('/__sandbox/dashboard/snapshots?done=restored&name=from-dashboard');
    expect((await sb.get(`/gateway/v3/paymentlinks/${link.body.body.link.linkId}?businessId=dash-snap`)).body.result).not.toBe(0);

    expect((await form('/__sandbox/dashboard/snapshots/from-dashboard/delete', {})).status).toBe(303);
    expect(await (await fetch(`${sb.url}/__sandbox/dashboard/snapshots`)).text()).not.toContain('data-snapshot="from-dashboard"');
    expect((await form('/__sandbox/dashboard/snapshots', { name: '<b>' })).status).toBe(400);
  });
});

describe('webhook deliveries pending at restore time', () => {
  it('sends again those pending in the snapshot and drops those of the replaced state', async () => {
    const { createServer } = await import('node:http');
    let accept = false;
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (accept) received.push((JSON.parse(body) as { Payload: { body: { id: string } } }).Payload.body.id);
        res.writeHead(accept ? 200 : 503).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as { port: number }).port;
    // On manual timers: the retries fall due when the test moves time, so "never sent" is checked after the
    // whole schedule has run, not after a sleep as long as it.
    const timers = new ManualTimers();
    const running = await startSandbox({ port: 0, db: ':memory:', timers, webhookRetry: [150, 150, 150, 150, 150, 150, 150, 150, 150, 150] });
    const idle = timers.size; // the sweep's interval and the like: nothing of the deliveries
    try {
      const post = (path: string, body: unknown) =>
        requestJson(running.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/__sandbox/webhooks', { businessId: 'hooks', url: `http://127.0.0.1:${port}/hook` })).body.result).toBe(0);
      const before = await post('/gateway/v3/payments', payment('hooks'));
      await post('/__sandbox/snapshots', { name: 'pending' });
      const after = await post('/gateway/v3/payments', payment('hooks'));
      await post('/__sandbox/snapshots/pending/restore', {});
      accept = true;
      await eventually(
        async () => {
          await timers.advance(150);
          return received;
        },
        (got) => got.includes(before.body.body.id),
      );
      // The worker is idle once no retry or attempt of a delivery waits on the timers; then the whole retry
      // schedule is run through once more: nothing of the replaced state may go out.
      await eventually(
        async () => {
          await timers.advance(150);
          return timers.size;
        },
        (size) => size === idle,
      );
      for (let i = 0; i < 11; i++) await timers.advance(150);
      expect(timers.size).toBe(idle);
      expect(received).toContain(before.body.body.id);
      expect(received).not.toContain(after.body.body.id);
      expect(running.sandbox.unexpectedErrors).toEqual([]);
    } finally {
      await running.close();
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
