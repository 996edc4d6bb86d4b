/**
 * paylink/testing from its source: createTestSandbox's client, clock, snapshots and business reset against
 * the real in-process sandbox, and webhookReceiver verifying real deliveries (and refusing, loudly, the
 * sandbox's forged and changed ones). The browser part is in test/e2e/testing-kit-browser.test.ts; the
 * packed package in test/consumer/ (test/integration/consumer-project.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox, webhookReceiver, WebhookVerificationError, type TestSandbox, type WebhookReceiver } from '../../src/testing/index.js';

const CARD = { number: '4111111111111111', expiryMonth: '12', expiryYear: '2034', cvv: '123', holderName: 'Ada Lovelace' };

let sandbox: TestSandbox;
let receiver: WebhookReceiver;
beforeAll(async () => {
  sandbox = await createTestSandbox({ businessId: 'kit-shop' });
  receiver = await webhookReceiver({ secret: sandbox.webhookSecret });
  await sandbox.addWebhook(receiver.url);
});
afterAll(async () => {
  await receiver?.close();
  await sandbox?.close();
});

describe('createTestSandbox', () => {
  it('serves an in-memory sandbox on a free port with a typed client that fills in the business id', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const link = await sandbox.api.links.create({
      transaction: { amount: 12.5, currencyCode: 'EUR', trackingCode: 'kit-0001' },
      link: { returnUrl: 'https://shop.example/return', brandIds: [1010, 1020] },
    });
    expect(link.status).toBe(200);
    expect(link.result).toBe(0);
    expect(link.body.link.redirect.url).toContain(`${sandbox.url}/gateway/v3/web/paymentlinks/`);
    const read = await sandbox.api.links.get(link.body.link.linkId);
    expect(read.body.transaction).toMatchObject({ trackingCode: 'kit-0001' });
    expect((await sandbox.api.links.get(link.body.link.linkId, 'another-shop')).result).not.toBe(0);
  });

  it('moves the clock, and snapshots and restores the state', async () => {
    await sandbox.clock.set('2031-01-01T00:00:00Z', { freeze: true });
    await sandbox.snapshot('kit');
    const paid = await sandbox.api.payments.create({ transaction: { amount: 5, currencyCode: 'EUR', trackingCode: 'kit-pay-1' }, card: CARD });
    expect(paid.result).toBe(0);
    expect(await sandbox.clock.advance('1d')).toBe('2031-01-02T00:00:00.000Z');
    await sandbox.restore('kit');
    expect(await sandbox.clock.now()).toBe('2031-01-01T00:00:00.000Z');
    expect((await sandbox.api.payments.get(paid.body.id)).result).not.toBe(0);
    await sandbox.clock.reset();
    await expect(sandbox.restore('no-such-snapshot')).rejects.toThrow(/Snapshot "no-such-snapshot" not found/);
  });

  it("resets one business's data only", async () => {
    const mine = await sandbox.api.tokens.create({ brandId: 1010, card: CARD });
    const theirs = await sandbox.api.tokens.create({ brandId: 1010, card: CARD }, 'other-shop');
    const reset = await sandbox.resetBusiness();
    // What was deleted, not undefined (issue 31, item 17).
    expect(reset.businessId).toBe(sandbox.businessId);
    expect(reset.deleted.tokens).toBeGreaterThanOrEqual(1);
    expect((await sandbox.api.tokens.get(mine.body.token)).result).not.toBe(0);
    expect((await sandbox.api.tokens.get(theirs.body.token, 'other-shop')).result).toBe(0);
  });
});

describe('webhookReceiver', () => {
  it("verifies each delivery's signature and CRC and hands the events out by type and payment", async () => {
    const paid = await sandbox.api.payments.create(
      { transaction: { amount: 9, currencyCode: 'EUR', trackingCode: 'kit-hook' }, card: CARD },
      { action: 'authorize' },
    );
    expect(paid.result).toBe(0);
    const created = await receiver.next({ type: 'Transaction.Create', paymentId: paid.body.id });
    expect(created.claims.transmissionId).toBe(created.id);
    expect(created.body.Payload.body).toMatchObject({ id: paid.body.id });
    const captured = await sandbox.api.payments.capture(paid.body.id);
    expect(captured.result, JSON.stringify(captured)).toBe(0);
    const update = await receiver.next({ paymentId: captured.body.id });
    expect(update.type).toMatch(/^Transaction\.(Create|Update)$/);
    await expect(receiver.next({ paymentId: 'never', timeoutMs: 300 })).rejects.toThrow(/no .*payment never arrived within 300 ms/);
  });

  for (const [fault, why] of [
    ['bad-signature', /bad signature/],
    ['tampered-body', /body was changed/],
  ] as const) {
    it(`rejects next() loudly when a delivery fails verification (${fault})`, async () => {
      const strict = await webhookReceiver({ secret: sandbox.webhookSecret });
      try {
        const hook = await sandbox.api.request('POST', '/__sandbox/webhooks', { businessId: 'kit-forged', url: strict.url, faults: [fault] });
        expect(hook.result, JSON.stringify(hook)).toBe(0);
        await sandbox.api.payments.create(
          { transaction: { amount: 3, currencyCode: 'EUR', trackingCode: `kit-${fault}` }, card: CARD },
          { businessId: 'kit-forged' },
        );
        const failure = await strict.next({ timeoutMs: 15_000 }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(WebhookVerificationError);
        expect((failure as Error).message).toMatch(why);
        expect(strict.events).toEqual([]);
      } finally {
        await strict.close();
      }
    });
  }
});
