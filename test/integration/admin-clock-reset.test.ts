import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { parseClockStep } from '../../src/sandbox/services/admin-clock.js';

const sb = useSandbox();

describe('sandbox clock', () => {
  it('reads the clock as now, offsetMs and frozen', async () => {
    const res = await sb.get('/__sandbox/clock');
    expect(res.status).toBe(200);
    expect(res.body.body.frozen).toBe(false);
    expect(Math.abs(Date.parse(res.body.body.now) - Date.now() - res.body.body.offsetMs)).toBeLessThan(5000);
  });

  it('parses short, ISO and millisecond clock steps and refuses anything else', () => {
    expect(parseClockStep('31m')).toBe(31 * 60_000);
    expect(parseClockStep('1h30m')).toBe(90 * 60_000);
    expect(parseClockStep('-5m')).toBe(-5 * 60_000);
    expect(parseClockStep('PT31M')).toBe(31 * 60_000);
    expect(parseClockStep('P1DT2H')).toBe(26 * 3_600_000);
    expect(parseClockStep(1500)).toBe(1500);
    expect(parseClockStep('500ms')).toBe(500);
    expect(parseClockStep('soon')).toBeUndefined();
    expect(parseClockStep('31 minutes')).toBeUndefined();
    expect(parseClockStep('P')).toBeUndefined();
  });

  it('sets and freezes the clock, and keeps it across a restart', async () => {
    const set = await sb.post('/__sandbox/clock', { set: '2031-05-01T10:00:00Z', freeze: true });
    expect(set.body.body).toMatchObject({ now: '2031-05-01T10:00:00.000Z', frozen: true });
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link: { duration: 'P1D' } }));
    expect(link.body.body.link.expirationTime).toBe('2031-05-02T10:00:00Z');
    await sb.restart();
    const after = await sb.get('/__sandbox/clock');
    expect(after.body.body).toMatchObject({ now: '2031-05-01T10:00:00.000Z', frozen: true });
    const reset = await sb.post('/__sandbox/clock', { reset: true });
    expect(reset.body.body.frozen).toBe(false);
    expect(reset.body.body.offsetMs).toBe(0);
  });
});

describe('sandbox reset', () => {
  it('forgets every link, checkout and logged request but keeps serving', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const linkId = link.body.body.link.linkId as string;
    const checkout = await sb.post('/gateway/v3/checkouts', checkoutRequest());
    const checkoutId = checkout.body.body.checkout.checkoutId as string;
    expect((await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`)).status).toBe(200);

    const reset = await sb.post('/__sandbox/reset', {});
    expect(reset.status).toBe(200);
    expect(reset.body.body.deleted.links).toBeGreaterThanOrEqual(1);
    expect((await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`)).status).toBe(404);
    expect((await sb.get(`/gateway/v3/checkouts/${checkoutId}?businessId=biz-1`)).status).toBe(404);
    const log = await sb.get('/__sandbox/requests');
    const creations = log.body.body.requests.filter((r: { method: string; path: string }) => r.method === 'POST' && r.path.startsWith('/gateway'));
    expect(creations).toEqual([]);

    const again = await sb.post('/gateway/v3/paymentlinks', linkRequest({ transaction: { trackingCode: link.body.body.transaction.trackingCode } }));
    expect(again.status).toBe(200);
  });
});

describe('admin token', () => {
  const guarded = useSandbox({ adminToken: 'secret-token-1' });

  it('refuses admin endpoints without the token and accepts it as a header, bearer or query', async () => {
    expect((await guarded.get('/__sandbox/clock')).status).toBe(401);
    expect((await guarded.get('/__sandbox/clock', { headers: { 'x-paylink-admin-token': 'secret-token-1' } })).status).toBe(200);
    expect((await guarded.get('/__sandbox/requests', { headers: { authorization: 'Bearer secret-token-1' } })).status).toBe(200);
    expect((await guarded.get('/__sandbox/clock?token=secret-token-1')).status).toBe(200);
    expect((await guarded.post('/__sandbox/reset', {}, { headers: { 'x-paylink-admin-token': 'wrong' } })).status).toBe(401);
  });
});
