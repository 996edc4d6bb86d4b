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
