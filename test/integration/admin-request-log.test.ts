import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { maskedJson, maskQuery } from '../../src/sandbox/domain/mask.js';
import { Sandbox } from '../../src/sandbox/context.js';
import { ManualTimers } from '../../src/sandbox/domain/timers.js';
import { RequestLog } from '../../src/sandbox/services/request-log.js';
import { ApiClient } from '../../src/cli/client.js';
import { playCustomer } from '../../src/cli/customer.js';

const sb = useSandbox();

const FULL_NUMBER = '4111111111111111';

describe('request log', () => {
  it('keeps method, path, status, business, duration and both bodies of an API request', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'log-biz' }));
    const linkId = created.body.body.link.linkId as string;
    await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=log-biz`);
    const res = await sb.get(`/__sandbox/requests?businessId=log-biz`);
    expect(res.status).toBe(200);
    const rows = res.body.body.requests as any[];
    expect(rows.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200', 'GET 200']);
    expect(rows[0]).toMatchObject({ path: '/gateway/v3/paymentlinks', businessId: 'log-biz', kind: 'api' });
    expect(rows[0].request.body.transaction.amount).toBe(12.5);
    expect(rows[0].response.body.link.linkId).toBe(linkId);
    expect(rows[1].query).toBe('businessId=log-biz');
    expect(rows[0].seq).toBeLessThan(rows[1].seq);
    expect(typeof rows[0].durationMs).toBe('number');
  });

  it('never stores a full card number or CVV, in JSON bodies, forms or query strings', async () => {
    // Any API body the handler reads is logged; a link body carrying card data stands in for a payment.
    const request = linkRequest({ businessId: 'card-biz' }) as any;
    request.body.card = { number: FULL_NUMBER, cvv: '123', expiryMonth: '12', expiryYear: '2030', holderName: 'Ada' };
    request.body.note = `pasted ${FULL_NUMBER} here`;
    expect((await sb.post('/gateway/v3/paymentlinks', request)).status).toBe(200);
    await sb.get(`/gateway/v3/paymentlinks/nothing?businessId=card-biz&cardNumber=${FULL_NUMBER}&cvv=999`);
    // What reaches the file: write the in-memory window first.
    sb.running.sandbox.log.flush();
    const stored = sb.running.sandbox.store.db.prepare('SELECT request, response FROM request_log').all() as Array<{
      request: string | null;
      response: string | null;
    }>;
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(FULL_NUMBER);
    expect(everything).not.toContain('"cvv":"123"');
    expect(everything).not.toContain('cvv=999');
    expect(everything).toContain('411111******1111');
    const res = await sb.get('/__sandbox/requests?businessId=card-biz&method=POST');
    const logged = res.body.body.requests.at(-1);
    expect(logged.request.body.card).toMatchObject({ number: '411111******1111', cvv: '***', holderName: 'Ada' });

    expect(maskQuery(`formToken=abc&cardNumber=4111+1111+1111+1111&cvv=123&holderName=Ada`)).toBe(
      'formToken=abc&cardNumber=411111******1111&cvv=***&holderName=Ada',
    );
    expect(maskedJson({ cardNumber: '4111 1111 1111 1111', amount: 12 })).toBe('{"cardNumber":"411111******1111","amount":12}');
  });

  it('keeps no card number or CVV of hosted-form and direct payments', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'form-biz' }));
    const client = new ApiClient({ baseUrl: sb.url, businessId: 'form-biz' });
    const played = await playCustomer(client, created.body.body.link.linkId, { kind: 'link', card: '5555 5555 5555 4444', cvv: '737', follow: false });
    expect(played.state).toBe('PAID');
    await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: 'form-biz' },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', trackingCode: `direct-${Date.now()}` },
        card: { number: '4242424242424242', cvv: '919', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' },
      },
    });
    sb.running.sandbox.log.flush();
    const everything = JSON.stringify(sb.running.sandbox.store.db.prepare('SELECT * FROM request_log').all());
    for (const secret of ['5555555555554444', '5555 5555 5555 4444', '5555+5555+5555+4444', '4242424242424242', '"737"', '"919"', 'cvv=737'])
      expect(everything).not.toContain(secret);
    expect(everything).toContain('424242******4242');
  });

  it('filters by path, status class, exact status and business, and pages with since and limit', async () => {
    await sb.get('/gateway/v3/paymentlinks/missing-1?businessId=filter-biz');
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'filter-biz' }));
    const notFound = await sb.get('/__sandbox/requests?businessId=filter-biz&status=404');
    expect(notFound.body.body.requests.map((r: any) => r.path)).toEqual(['/gateway/v3/paymentlinks/missing-1']);
    const clientErrors = await sb.get('/__sandbox/requests?businessId=filter-biz&status=4xx');
    expect(clientErrors.body.body.requests).toHaveLength(1);
    const byPath = await sb.get('/__sandbox/requests?path=MISSING-1');
    expect(byPath.body.body.requests).toHaveLength(1);
    const all = await sb.get('/__sandbox/requests?businessId=filter-biz');
    const first = all.body.body.requests[0].seq as number;
    const after = await sb.get(`/__sandbox/requests?businessId=filter-biz&since=${first}`);
    expect(after.body.body.requests).toHaveLength(1);
    const newest = await sb.get('/__sandbox/requests?limit=1');
    expect(newest.body.body.requests).toHaveLength(1);
    expect(newest.body.body.lastSeq).toBeGreaterThanOrEqual(newest.body.body.requests[0].seq);
    expect((await sb.get('/__sandbox/requests?status=abc')).status).toBe(400);
    expect((await sb.get('/__sandbox/requests?limit=0')).status).toBe(400);
  });

  it('does not log its own polling or the dashboard', async () => {
    await sb.get('/__sandbox/requests');
    await sb.get('/__sandbox/clock');
    const res = await sb.get('/__sandbox/requests?path=__sandbox');
    expect(res.body.body.requests.filter((r: any) => r.method === 'GET')).toEqual([]);
  });

  it('long-polls: a follower waiting on since gets a request made after it started', async () => {
    const start = (await sb.get('/__sandbox/requests?limit=1')).body.body.lastSeq as number;
    // Whether the poll arrives before the request or after, it answers with that request alone.
    const waiting = sb.get(`/__sandbox/requests?since=${start}&wait=10&path=paymentlinks`);
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'follow-biz' }));
    const res = await waiting;
    expect(res.body.body.requests.map((r: any) => r.businessId)).toEqual(['follow-biz']);
    const empty = await sb.get(`/__sandbox/requests?since=${res.body.body.lastSeq}&wait=1&businessId=nobody`);
    expect(empty.body.body.requests).toEqual([]);
  });

  it('keeps only the newest rows once the log is full, across batches, and writes a batch before any read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-log-'));
    const sandbox = new Sandbox({ db: join(dir, 'log.db') });
    const count = () => sandbox.store.db.prepare('SELECT COUNT(*) FROM request_log').pluck().get() as number;
    try {
      const log = new RequestLog(sandbox, { capacity: 20 });
      const observe = (i: number) =>
        log.observer({ method: 'GET', path: `/gateway/v3/x/${i}`, query: '', status: 200, kind: 'api', startedAt: 0, durationMs: 1 });
      for (let i = 0; i < 30; i++) observe(i);
      // Answering only fills the in-memory window; nothing is written until idle or a read.
      expect(count()).toBe(0);
      expect(log.lastSeq()).toBe(30);
      log.flush();
      expect(count()).toBe(20);
      for (let i = 30; i < 45; i++) observe(i);
      const newest = log.list({ limit: 100 });
      expect(count()).toBe(20);
      expect(newest.map((r) => r.path)).toEqual(Array.from({ length: 20 }, (_, k) => `/gateway/v3/x/${25 + k}`));
      expect(newest.at(-1)!.seq).toBe(45);
      log.close();
      sandbox.store.flush();
      expect(count()).toBe(20);
    } finally {
      sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes a full window at once, so a burst is logged whole, and keeps a sample of a faster stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-log-'));
    const sandbox = new Sandbox({ db: join(dir, 'log.db') });
    const paths = () => sandbox.store.db.prepare('SELECT path FROM request_log ORDER BY seq').pluck().all() as string[];
    try {
      const log = new RequestLog(sandbox);
      // About 1.3 KB each, as a POST with its answer: 128 KiB of window is about a hundred of them.
      const responseJson = JSON.stringify({ result: 0, padding: 'x'.repeat(1000) });
      const observe = (i: number) =>
        log.observer({ method: 'POST', path: `/gateway/v3/x/${i}`, query: '', status: 200, kind: 'api', startedAt: 0, durationMs: 1, responseJson });
      for (let i = 0; i < 150; i++) observe(i);
      log.flush();
      expect(paths()).toEqual(Array.from({ length: 150 }, (_, k) => `/gateway/v3/x/${k}`));

      // A stream faster than one full window per quarter second: the window is not written again within
      // 250 ms of the last write, so the oldest unwritten rows give way; the newest are kept.
      for (let i = 150; i < 1150; i++) observe(i);
      log.flush();
      const kept = paths().slice(150);
      expect(kept.length).toBeGreaterThan(50);
      expect(kept.length).toBeLessThan(300);
      expect(kept.at(-1)).toBe('/gateway/v3/x/1149');
      expect(log.lastSeq()).toBe(1150);
      log.close();
    } finally {
      sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('under a load, writes the same share of requests in smaller, more frequent batches; a stream as fast as the log writes and a burst after it are logged whole', async () => {
    const timers = new ManualTimers(Date.UTC(2026, 0, 1));
    const dir = mkdtempSync(join(tmpdir(), 'paylink-log-'));
    const sandbox = new Sandbox({ db: join(dir, 'log.db') }, timers);
    const seqs = (from: number, to: number) =>
      sandbox.store.db.prepare('SELECT seq FROM request_log WHERE seq > ? AND seq <= ? ORDER BY seq').pluck().all(from, to) as number[];
    /** The lengths of the runs of consecutive sequence numbers: each run is one write of the window. */
    const runs = (list: number[]) => {
      const lengths: number[] = [];
      for (let k = 0; k < list.length; k++) {
        if (k > 0 && list[k] === list[k - 1]! + 1) lengths[lengths.length - 1]! += 1;
        else lengths.push(1);
      }
      return lengths;
    };
    try {
      const log = new RequestLog(sandbox, { capacity: 100_000 });
      // About 1 KB each with the window's own count: a full window (128 KiB) is about 130 of them.
      const responseJson = JSON.stringify({ result: 0, padding: 'x'.repeat(700) });
      const observe = () =>
        log.observer({ method: 'POST', path: '/gateway/v3/x', query: '', status: 200, kind: 'api', startedAt: 0, durationMs: 1, responseJson });
      // Three seconds of 10,000 requests a second.
      for (let ms = 0; ms < 3000; ms++) {
        for (let k = 0; k < 10; k++) observe();
        await timers.advance(1);
      }
      log.flush();
      const first = seqs(0, 10_000);
      const third = seqs(20_000, 30_000);
      // The first second: whole windows of about 130 rows, four a second.
      expect(Math.max(...runs(first))).toBeGreaterThan(100);
      // The third: windows of at most an eighth of that, about 32 a second...
      expect(Math.max(...runs(third))).toBeLessThanOrEqual(20);
      expect(runs(third).length).toBeGreaterThan(25);
      // ...so the same share of the requests is kept, and the newest request is among them.
      for (const kept of [first.length, third.length]) {
        expect(kept).toBeGreaterThan(400);
        expect(kept).toBeLessThan(700);
      }
      expect(third.at(-1)).toBe(30_000);

      // Then a stream at about the log's own pace, in bursts (ten 2.6 KB requests every 50 ms, 520 KB a
      // second): after its first second, which still follows the load's, every request is logged.
      const paced = JSON.stringify({ result: 0, padding: 'x'.repeat(2300) });
      for (let ms = 0; ms < 3000; ms += 50) {
        for (let k = 0; k < 10; k++)
          log.observer({ method: 'POST', path: '/gateway/v3/y', query: '', status: 200, kind: 'api', startedAt: 0, durationMs: 1, responseJson: paced });
        await timers.advance(50);
      }
      log.flush();
      expect(seqs(30_200, 30_600)).toHaveLength(400);

      // Quiet for a while: a burst is logged whole again.
      await timers.advance(2000);
      for (let k = 0; k < 150; k++) observe();
      log.flush();
      expect(seqs(30_600, 30_750)).toHaveLength(150);
      log.close();
    } finally {
      sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes the window to SQLite by itself once the sandbox is quiet', async () => {
    const before = sb.running.sandbox.store.db.prepare('SELECT COUNT(*) FROM request_log').pluck().get() as number;
    await sb.get('/gateway/v3/paymentlinks/nothing-here?businessId=quiet-biz');
    // No read of the log asks for it: the window's own timer writes it.
    const count = async () => sb.running.sandbox.store.db.prepare('SELECT COUNT(*) FROM request_log').pluck().get() as number;
    expect(await eventually(count, (after) => after > before)).toBeGreaterThan(before);
  });
});
