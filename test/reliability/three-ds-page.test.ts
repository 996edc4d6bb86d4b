/**
 * Issue 16, item 5: the 3-D Secure page exists only for a payment with an open challenge. A plain API
 * payment's id shows nothing of it (business, amount, reference), by GET or by a posted form.
 */
import { expect, test } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

function payment(number: string, businessId: string, trackingCode: string) {
  return {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { amount: 77.77, currencyCode: 'EUR', trackingCode },
      card: { number, cvv: '123', expiryMonth: '11', expiryYear: '2033', holderName: 'Alan Turing' },
    },
  };
}

test('a plain API payment of another business has no 3-D Secure page: 404 by GET and by POST, nothing of it shown', async () => {
  const reference = uniqueCode('secret-ref');
  const plain = await sb.post('/gateway/v3/payments', payment('4111111111111111', 'business-a', reference));
  expect(plain.body.result).toBe(0);
  const id = plain.body.body.id ?? plain.body.body.transaction?.id;
  expect(id).toBeTruthy();
  const page = await fetch(`${sb.url}/gateway/v3/web/3ds/${id}`);
  const html = await page.text();
  expect(page.status).toBe(404);
  for (const leak of ['business-a', reference, '77.77', '77,77', 'passed']) expect(html).not.toContain(leak);
  const posted = await fetch(`${sb.url}/gateway/v3/web/3ds/${id}`, {
    method: 'POST',
    body: new URLSearchParams({ formToken: 'x', action: 'submit', code: '1234' }),
    redirect: 'manual',
  });
  const postedHtml = await posted.text();
  expect(posted.status).toBe(404);
  for (const leak of ['business-a', reference, 'passed']) expect(postedHtml).not.toContain(leak);
});

test('the page of an open challenge is served from the redirect that opened it, and is gone once the check is over', async () => {
  const opened = await sb.post('/gateway/v3/payments', payment('4000000000003220', 'business-a', uniqueCode('3ds')));
  expect(opened.body.result).toBe(2);
  const url = opened.body.body.redirect.url as string;
  const page = await fetch(url);
  const html = await page.text();
  expect(page.status).toBe(200);
  const formToken = /name="formToken" value="([^"]+)"/.exec(html)?.[1];
  const done = await fetch(url, { method: 'POST', body: new URLSearchParams({ formToken: formToken!, action: 'submit', code: '1234' }), redirect: 'manual' });
  expect(done.status).toBe(200);
  expect(await done.text()).toContain('3-D Secure check passed');
  expect((await fetch(url)).status).toBe(404);
  // The same form posted again (a double click) still answers from the flow.
  const again = await fetch(url, { method: 'POST', body: new URLSearchParams({ formToken: formToken!, action: 'submit', code: '1234' }), redirect: 'manual' });
  expect(again.status).toBeLessThan(400);
});
