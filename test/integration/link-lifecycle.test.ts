import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { card, openPage, postPage } from './hosted-form-helpers.js';

const sb = useSandbox();

/** Pays through the hosted form like a browser (contract 3) and returns the redirect location. */
async function payOnPage(path: string, number: string): Promise<string | null> {
  const page = await openPage(sb, path);
  expect(page.formToken, page.html.slice(0, 300)).toBeTruthy();
  const answer = await postPage(sb, path, { formToken: page.formToken, ...card(number) });
  return answer.location;
}

describe('link and checkout reads after the customer acted', () => {
  it('answers a paid link with 0 Completed, status PAID, the payment entry, and refuses to cancel it with -8', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const linkId = created.body.body.link.linkId;
    const location = await payOnPage(`/gateway/v3/web/paymentlinks/${linkId}`, '4111111111111111');
    expect(location).toMatch(new RegExp(`^https://merchant\\.example/return\\?linkId=${linkId}&id=[0-9a-f-]{36}$`));

    const read = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(read.status).toBe(200);
    expect(read.body.result).toBe(0);
    expect(read.body.description).toBe('Completed');
    expect(read.body.body.link.status).toBe('PAID');
    expect(read.body.body.payments).toHaveLength(1);
    const entry = read.body.body.payments[0];
    expect(entry.result).toBe(0);
    expect(entry.header.requestCode).toMatch(/^\d+\.[0-9a-f-]{36}$/);
    expect(entry.body.card).toMatchObject({ firstSixDigits: '411111', lastFourDigits: '1111' });
    expect(entry.body.transaction).toMatchObject({ amount: 12.5, currencyCode: 'EUR', action: 'payment' });
    expect(read.text).not.toContain('4111111111111111');

    const cancel = await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-1' } });
    expect(cancel.status).toBe(400);
    expect(cancel.body.result).toBe(-8);
    expect(cancel.body.body.error.message).toContain('PAID');
    expect((await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`)).body.body.link.status).toBe('PAID');
  });

  it('answers a paid checkout with 0 Completed and its payment, even after the 30 minutes', async () => {
    const created = await sb.post('/gateway/v3/checkouts', checkoutRequest());
    const checkoutId = created.body.body.checkout.checkoutId;
    const location = await payOnPage(`/gateway/v3/web/checkouts/${checkoutId}`, '5555555555554444');
    expect(location).toContain(`checkoutId=${checkoutId}`);
    const clock = sb.running.sandbox.clock;
    clock.advance(31 * 60_000);
    try {
      const read = await sb.get(`/gateway/v3/checkouts/${checkoutId}?businessId=biz-1`);
      expect(read.status).toBe(200);
      expect(read.body.result).toBe(0);
      expect(read.body.description).toBe('Completed');
      expect(read.body.body.payments.map((p: { result: number }) => p.result)).toEqual([0]);
    } finally {
      clock.advance(-31 * 60_000);
    }
  });

  it('answers a GET that carries a JSON body as if it had none', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const linkId = created.body.body.link.linkId;
    const url = new URL(`${sb.url}/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': '2' } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).body.link.linkId).toBe(linkId);
  });
});
