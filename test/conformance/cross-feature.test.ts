import { afterEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import {
  APPROVED_CARD_FIELDS,
  UUID,
  card,
  createCheckout,
  createLink,
  customerReturns,
  expectError,
  moveClock,
  parseForms,
  paymentBody,
  uniqueCode,
} from './client.js';

const sb = useSandbox();

afterEach(async () => {
  await moveClock(sb, { reset: true });
});

describe('payments made on hosted pages are payments of the API (docs/api.md)', () => {
  it('answers GET /gateway/v3/payments/{id} for the id in the link redirect', async () => {
    const { link, transaction } = await createLink(sb);
    const back = await customerReturns(link.redirect.url);
    const id = back.searchParams.get('id')!;
    const res = await sb.get(`/gateway/v3/payments/${id}?businessId=conf-biz`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.body.id).toBe(id);
    expect(res.body.body.trackingCode).toBe(transaction.trackingCode);
  });

  it('refunds a payment made on a checkout page', async () => {
    const { checkout } = await createCheckout(sb, { transaction: { amount: 20 } });
    const back = await customerReturns(checkout.redirect.url);
    const id = back.searchParams.get('id')!;
    const refund = await sb.post(`/gateway/v3/payments/${id}/refund`, { header: { businessId: 'conf-biz' }, body: { transaction: { amount: 5 } } });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.body.transaction.parentId).toBe(id);
  });

  it('makes a link with authorizationMode authorize an authorization that can be captured', async () => {
    const { link } = await createLink(sb, { transaction: { authorizationMode: 'authorize', amount: 40 } });
    const back = await customerReturns(link.redirect.url);
    const id = back.searchParams.get('id')!;
    const capture = await sb.post(`/gateway/v3/payments/${id}/capture`, { header: { businessId: 'conf-biz' }, body: {} });
    expect(capture.status, capture.text).toBe(200);
    expect(capture.body.body.transaction.action).toBe('capture');
  });
});

describe('direct payment with 3-D Secure (docs/api.md, "Result codes", Test cards)', () => {
  it('answers 2 Pending, then 0 Ok on GET after the challenge is passed with 1234', async () => {
    const created = await sb.post('/gateway/v3/payments', paymentBody({ card: card('4000000000003220') }));
    expect(created.body.result).toBe(2);
    const url = created.body.body.redirect?.url as string | undefined;
    expect(url, 'a challenge page address in body.redirect.url').toBeTypeOf('string');
    const html = await (await fetch(url!)).text();
    const form = parseForms(html)[0]!;
    const fields = new URLSearchParams();
    for (const input of form.inputs) fields.append(input.name, input.type === 'hidden' ? input.value : '1234');
    const submit = form.buttons[0]!;
    if (submit.name) fields.append(submit.name, submit.value);
    const answer = await fetch(new URL(form.action, url), {
      method: 'POST',
      redirect: 'manual',
      body: fields,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await answer.text();
    expect(answer.status).toBeLessThan(400);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`);
    expect(read.body.result).toBe(0);
  });
});

describe('card expiry on the sandbox clock (docs/test-cards.md, "The table")', () => {
  it('approves a card in its expiry month and declines it (-4, expired) the month after', async () => {
    await moveClock(sb, { set: '2030-06-30T23:00:00.000Z', freeze: true });
    const ok = await sb.post('/gateway/v3/payments', paymentBody({ card: card('4111111111111111', { expiryMonth: '06', expiryYear: '2030' }) }));
    expect(ok.body.result, ok.text).toBe(0);
    await moveClock(sb, { set: '2030-07-01T00:00:01.000Z', freeze: true });
    const late = await sb.post('/gateway/v3/payments', paymentBody({ card: card('4111111111111111', { expiryMonth: '06', expiryYear: '2030' }) }));
    expectError(late, { result: -4, status: 400, message: /expired/i });
  });

  it('accepts a two-digit expiry year', async () => {
    const res = await sb.post('/gateway/v3/payments', paymentBody({ card: card('4111111111111111', { expiryMonth: '12', expiryYear: '35' }) }));
    expect(res.body.result, res.text).toBe(0);
    expect(res.body.body.card.expiryYear).toBe('2035');
  });
});

describe('double submissions (house rules)', () => {
  it('charges a link once when the same form is submitted twice at the same time', async () => {
    const { link } = await createLink(sb);
    const html = await (await fetch(link.redirect.url)).text();
    const form = parseForms(html)[0]!;
    const fields = new URLSearchParams();
    for (const input of form.inputs) if (input.type === 'hidden') fields.append(input.name, input.value);
    for (const [name, value] of Object.entries(APPROVED_CARD_FIELDS)) fields.append(name, value);
    const post = () =>
      fetch(new URL(form.action, link.redirect.url), {
        method: 'POST',
        redirect: 'manual',
        body: fields.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }).then(async (r) => ({ status: r.status, location: r.headers.get('location'), body: await r.text() }));
    const answers = await Promise.all([post(), post()]);
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(res.body.body.payments.filter((p: any) => p.result === 0)).toHaveLength(1);
  });

  it('charges one of two concurrent direct payments with the same trackingCode and refuses the other with -8', async () => {
    const trackingCode = uniqueCode('race');
    const answers = await Promise.all([0, 1].map(() => sb.post('/gateway/v3/payments', paymentBody({ transaction: { trackingCode } }))));
    expect(answers.map((a) => a.body.result).sort()).toEqual([-8, 0]);
    expect(answers.find((a) => a.body.result === 0)!.body.body.id).toMatch(UUID);
  });
});
