// A file using the suite's shared sandbox (global-setup.ts) through plain HTTP, as a merchant's app would,
// with a business id of its own so parallel files never see each other's data.
import { expect, inject, it } from 'vitest';

const url = inject('paymentApiUrl');
const businessId = `worker-${process.env.VITEST_POOL_ID ?? process.pid}`;

it('creates a link on the shared sandbox and resets only its own business', async () => {
  const created = await fetch(`${url}/gateway/v3/paymentlinks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      header: { businessId },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: 'shared-1' },
        link: { duration: 'P1D', brandIds: [1010], returnUrl: 'https://shop.example/return' },
      },
    }),
  }).then((r) => r.json() as Promise<{ result: number; body: { link: { linkId: string } } }>);
  expect(created.result).toBe(0);
  const reset = await fetch(`${url}/__sandbox/reset?businessId=${businessId}`, { method: 'POST' });
  expect(reset.status).toBe(200);
  const gone = await fetch(`${url}/gateway/v3/paymentlinks/${created.body.link.linkId}?businessId=${businessId}`);
  const text = await gone.text();
  // Not found: a 404, or the provider's envelope with a failure result.
  expect(gone.status === 404 || (JSON.parse(text) as { result: number }).result !== 0, text).toBe(true);
});
