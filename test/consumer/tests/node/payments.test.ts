// The same with node:test: one sandbox for the file, a webhook receiver verifying each delivery.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestSandbox, webhookReceiver, type TestSandbox, type WebhookReceiver } from 'paylink/testing';

let sandbox: TestSandbox;
let received: WebhookReceiver;

before(async () => {
  sandbox = await createTestSandbox({ businessId: 'shop-node-test' });
  received = await webhookReceiver({ secret: sandbox.webhookSecret });
  await sandbox.addWebhook(received.url);
});
after(async () => {
  await received.close();
  await sandbox.close();
});

test('an authorized payment, then captured: both events arrive, verified', async () => {
  const card = { number: '5555555555554444', expiryMonth: 12, expiryYear: 2034, cvv: '123', holderName: 'Grace Hopper' };
  const authorized = await sandbox.api.payments.create(
    { transaction: { amount: 25, currencyCode: 'EUR', trackingCode: 'order-0003' }, card },
    { action: 'authorize' },
  );
  assert.equal(authorized.result, 0);
  const created = await received.next({ type: 'Transaction.Create', paymentId: authorized.body.id });
  assert.equal(created.claims.transmissionId, created.id);
  const captured = await sandbox.api.payments.capture(authorized.body.id);
  assert.equal(captured.result, 0);
  await received.next({ paymentId: captured.body.id });
});

test('a business reset leaves other businesses alone', async () => {
  const card = { number: '4111111111111111', expiryMonth: 12, expiryYear: 2034, cvv: '123', holderName: 'Ada Lovelace' };
  const mine = await sandbox.api.tokens.create({ brandId: 1010, card });
  const theirs = await sandbox.api.tokens.create({ brandId: 1010, card }, 'another-shop');
  await sandbox.resetBusiness();
  assert.notEqual((await sandbox.api.tokens.get(mine.body.token)).result, 0);
  assert.equal((await sandbox.api.tokens.get(theirs.body.token, 'another-shop')).result, 0);
});
