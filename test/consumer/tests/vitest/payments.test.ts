// One sandbox per test file (vitest): created before the tests, closed after, restored to the seeded state
// before each test so tests never see each other's data.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestSandbox, webhookReceiver, type TestSandbox, type WebhookReceiver } from 'paylink/testing';

const card = { number: '4111111111111111', expiryMonth: 12, expiryYear: 2034, cvv: '123', holderName: 'Ada Lovelace' };

let sandbox: TestSandbox;
let received: WebhookReceiver;

beforeAll(async () => {
  sandbox = await createTestSandbox({ businessId: 'shop-vitest' });
  received = await webhookReceiver({ secret: sandbox.webhookSecret });
  await sandbox.addWebhook(received.url);
  await sandbox.snapshot('seeded');
});
beforeEach(() => sandbox.restore('seeded'));
afterAll(async () => {
  await received.close();
  await sandbox.close();
});

describe('payments against the sandbox', () => {
  it('approves a card payment and sends a signed Transaction.Create webhook', async () => {
    const payment = await sandbox.api.payments.create({ transaction: { amount: 10, currencyCode: 'EUR', trackingCode: 'order-0001' }, card });
    expect(payment.result).toBe(0);
    const event = await received.next({ type: 'Transaction.Create', paymentId: payment.body.id });
    expect(event.body.Payload.body).toMatchObject({ id: payment.body.id });
  });

  it('starts from the seeded state: the order of the test before is gone', async () => {
    const lookup = await sandbox.api.request<unknown[]>('GET', `/gateway/v3/payments?businessId=shop-vitest&trackingCode=order-0001`);
    expect(lookup.body).toEqual([]);
  });

  it('expires a checkout when the clock moves 31 minutes', async () => {
    const checkout = await sandbox.api.checkouts.create({
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: 'order-0002' },
      checkout: { returnUrl: 'https://shop.example/return', brandIds: [1010] },
    });
    await sandbox.clock.advance('31m');
    expect((await sandbox.api.checkouts.get(checkout.body.checkout.checkoutId)).result).toBe(4);
  });
});
