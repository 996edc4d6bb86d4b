/**
 * The hosted form's lifecycle over plain HTTP (contract 3, docs/hosted-pages.md, "Lifecycle on submission"): what each submission
 * does to its link or checkout, where the browser is sent, and that a form token pays at most once.
 */
import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { APPROVE, card, DECLINE, DECLINED_RETRY, FAILED_RETRY, INTERNAL_ERROR, openPage, postPage, submit, THREE_DS } from './hosted-form-helpers.js';

const sb = useSandbox();

async function newLink(link: Record<string, unknown> = {}): Promise<{ id: string; page: string }> {
  const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link }));
  expect(created.status).toBe(200);
  const id = created.body.body.link.linkId as string;
  return { id, page: new URL(created.body.body.link.redirect.url).pathname };
}

async function newCheckout(checkout: Record<string, unknown> = {}): Promise<{ id: string; page: string }> {
  const created = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout }));
  expect(created.status).toBe(200);
  const id = created.body.body.checkout.checkoutId as string;
  return { id, page: new URL(created.body.body.checkout.redirect.url).pathname };
}

const linkStatus = (id: string) => sb.get(`/gateway/v3/paymentlinks/${id}?businessId=biz-1`);
const checkoutStatus = (id: string) => sb.get(`/gateway/v3/checkouts/${id}?businessId=biz-1`);

describe('hosted form of a payment link', () => {
  it('pays with the approve card and sends the browser to returnUrl with linkId and the payment id', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, card(APPROVE));
    expect(answer.status).toBe(303);
    const status = await linkStatus(link.id);
    expect(status.body.description).toBe('Completed');
    expect(status.body.body.link.status).toBe('PAID');
    const payment = status.body.body.payments[0];
    expect(payment.result).toBe(0);
    expect(answer.location).toBe(`https://merchant.example/return?linkId=${link.id}&id=${payment.body.transaction.id}`);
    expect(JSON.stringify(status.body)).not.toContain(APPROVE);
  });

  it('shows the reason and a fresh form after a failed attempt, and declines the link after the third', async () => {
    const link = await newLink();
    const first = await submit(sb, link.page, card(DECLINE));
    expect(first.status).toBe(200);
    expect(first.state).toBe('form');
    expect(first.alert).toMatch(/not approved/);
    expect(first.alert).toMatch(/2 attempts left/);
    expect(first.formToken).toBeTruthy();
    expect((await linkStatus(link.id)).body.body.link.status).toBe('READY');

    const second = await postPage(sb, link.page, { formToken: first.formToken, ...card(DECLINE) });
    expect(second.status).toBe(200);
    expect(second.alert).toMatch(/1 attempt left/);
    const third = await postPage(sb, link.page, { formToken: second.formToken, ...card(DECLINE) });
    expect(third.status).toBe(303);

    const status = await linkStatus(link.id);
    expect(status.body.body.link.status).toBe('DECLINED');
    expect(status.body.body.payments.map((p: any) => p.result)).toEqual([-4, -4, -4]);
    expect(third.location).toBe(`https://merchant.example/return?linkId=${link.id}&id=${status.body.body.payments[2].body.transaction.id}`);
  });

  it('approves the retry cards on the second attempt of the same link', async () => {
    for (const number of [FAILED_RETRY, DECLINED_RETRY]) {
      const link = await newLink();
      const first = await submit(sb, link.page, card(number));
      expect(first.status).toBe(200);
      const second = await postPage(sb, link.page, { formToken: first.formToken, ...card(number) });
      expect(second.status).toBe(303);
      const status = await linkStatus(link.id);
      expect(status.body.body.link.status).toBe('PAID');
      expect(status.body.body.payments.map((p: any) => p.result)).toEqual([number === FAILED_RETRY ? -3 : -5, 0]);
    }
  });

  it('marks the link DECLINEDBYCUSTOMER on the decline button and redirects without a payment id', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, { action: 'decline' });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`https://merchant.example/return?linkId=${link.id}`);
    const status = await linkStatus(link.id);
    expect(status.body.body.link.status).toBe('DECLINEDBYCUSTOMER');
    expect(status.body.description).toBe('Completed');
    expect(status.body.body.payments).toEqual([]);
  });

  it('keeps the merchant query string and fragment of returnUrl', async () => {
    const link = await newLink({ returnUrl: 'https://shop.example/back?order=7&x=a%20b#done' });
    const answer = await submit(sb, link.page, card(APPROVE));
    expect(answer.location).toMatch(new RegExp(`^https://shop\\.example/back\\?order=7&x=a%20b&linkId=${link.id}&id=[0-9a-f-]{36}#done$`));
  });

  it('runs the 3-D Secure challenge: PENDING meanwhile, code 1234 pays the link', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, card(THREE_DS));
    expect(answer.status).toBe(303);
    expect(answer.location).toMatch(/^\/gateway\/v3\/web\/3ds\/[0-9a-f-]{36}$/);
    expect((await linkStatus(link.id)).body.body.link.status).toBe('PENDING');

    // Going back to the link page while the challenge is open leads to the challenge.
    const back = await openPage(sb, link.page);
    expect(back.status).toBe(303);
    expect(back.location).toBe(answer.location);

    const challenge = await openPage(sb, answer.location!);
    expect(challenge.state).toBe('challenge');
    const done = await postPage(sb, answer.location!, { formToken: challenge.formToken, action: 'submit', code: '1234' });
    expect(done.status).toBe(303);
    const status = await linkStatus(link.id);
    expect(status.body.body.link.status).toBe('PAID');
    expect(status.body.body.payments.map((p: any) => p.result)).toEqual([0]);
    expect(done.location).toBe(`https://merchant.example/return?linkId=${link.id}&id=${status.body.body.payments[0].body.transaction.id}`);
  });

  it('fails the 3-D Secure check with -10 on a wrong code or cancel and offers the form again', async () => {
    const link = await newLink();
    for (const [i, fields] of [{ action: 'submit', code: '0000' }, { action: 'cancel' }].entries()) {
      const answer = await submit(sb, link.page, card(THREE_DS));
      const challenge = await openPage(sb, answer.location!);
      const failed = await postPage(sb, answer.location!, { formToken: challenge.formToken, ...fields });
      expect(failed.status).toBe(200);
      expect(failed.state).toBe('form');
      expect(failed.alert).toMatch(/not approved/);
      const status = await linkStatus(link.id);
      expect(status.body.body.link.status).toBe('READY');
      expect(status.body.body.payments.map((p: any) => p.result)).toEqual(i === 0 ? [-10] : [-10, -10]);
    }
  });

  it('leads from a finished challenge page back to the link page, which then says it was paid', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, card(THREE_DS));
    const challenge = await openPage(sb, answer.location!);
    await postPage(sb, answer.location!, { formToken: challenge.formToken, action: 'submit', code: '1234' });
    const again = await openPage(sb, answer.location!);
    expect(again.status).toBe(303);
    expect(again.location).toBe(link.page);
    expect((await openPage(sb, link.page)).state).toBe('paid');
  });

  it('abandons an open challenge (-10) when the link expired meanwhile, and pays nothing', async () => {
    const link = await newLink({ duration: 'PT5M' });
    const answer = await submit(sb, link.page, card(THREE_DS));
    const challenge = await openPage(sb, answer.location!);
    sb.running.sandbox.clock.advance(6 * 60_000);
    const late = await postPage(sb, answer.location!, { formToken: challenge.formToken, action: 'submit', code: '1234' });
    expect(late.status).toBe(400);
    expect(late.state).toBe('expired');
    const status = await linkStatus(link.id);
    expect(status.body.body.link.status).toBe('EXPIRED');
    expect(status.body.body.payments.map((p: any) => p.result)).toEqual([-10]);
  });

  it('answers the internal-error card with a 500 page that still offers the form', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, card(INTERNAL_ERROR));
    expect(answer.status).toBe(500);
    expect(answer.state).toBe('form');
    expect((await linkStatus(link.id)).body.body.payments.map((p: any) => p.result)).toEqual([-7]);
  });

  it('makes no payment and uses no attempt for a card the form refuses (Luhn, brand not offered, missing CVV)', async () => {
    const link = await newLink({ brandIds: [1010] });
    let answer = await submit(sb, link.page, card('4111111111111112'));
    expect(answer.status).toBe(200);
    // Worded for the customer: the form's field names, never the API's paths or the docs' file names.
    expect(answer.alert).toMatch(/check the card number: it is not a valid card number/);
    expect(answer.alert).not.toMatch(/body\.card|Invalid property value|docs\//);
    answer = await postPage(sb, link.page, { formToken: answer.formToken, ...card('5555555555554444') });
    expect(answer.alert).toMatch(/MasterCard is not accepted here/);
    answer = await postPage(sb, link.page, { formToken: answer.formToken, ...card(APPROVE, { cvv: '' }) });
    expect(answer.alert).toMatch(/3-digit security code/);
    answer = await postPage(sb, link.page, { formToken: answer.formToken, ...card(APPROVE, { holderName: ' ' }) });
    expect(answer.alert).toMatch(/name on the card/);
    const status = await linkStatus(link.id);
    expect(status.body.description).toBe('Ok');
    expect(status.body.body.link.status).toBe('READY');
  });

  it('accepts one-digit months, two-digit years and spaces in the card number', async () => {
    const link = await newLink();
    const year = String((new Date().getUTCFullYear() + 2) % 100);
    const answer = await submit(sb, link.page, card('4111 1111 1111 1111', { expiryMonth: '3', expiryYear: year }));
    expect(answer.status).toBe(303);
    const payment = (await linkStatus(link.id)).body.body.payments[0];
    expect(payment.body.card.expiryMonth).toBe('03');
    expect(payment.body.card.expiryYear).toBe(`20${year}`);
  });

  it('charges a link created with threeDSecure: true only after the challenge', async () => {
    const link = await newLink({ threeDSecure: true });
    const answer = await submit(sb, link.page, card(APPROVE));
    expect(answer.location).toMatch(/^\/gateway\/v3\/web\/3ds\//);
    expect((await linkStatus(link.id)).body.body.link.status).toBe('PENDING');
  });
});

describe('hosted form of a checkout', () => {
  it('pays with the approve card: Completed, redirect with checkoutId and the payment id', async () => {
    const checkout = await newCheckout();
    const answer = await submit(sb, checkout.page, card(APPROVE));
    expect(answer.status).toBe(303);
    const status = await checkoutStatus(checkout.id);
    expect(status.body.result).toBe(0);
    expect(status.body.description).toBe('Completed');
    expect(answer.location).toBe(`https://merchant.example/return?checkoutId=${checkout.id}&id=${status.body.body.payments[0].body.transaction.id}`);
    expect(status.body.body.payments[0].body.token).toBeUndefined();
  });

  it('stays Pending with the failed attempts, then answers -4 Declined after the third', async () => {
    const checkout = await newCheckout();
    let answer = await submit(sb, checkout.page, card(DECLINE));
    let status = await checkoutStatus(checkout.id);
    expect(status.body.result).toBe(2);
    expect(status.body.body.payments).toHaveLength(1);
    answer = await postPage(sb, checkout.page, { formToken: answer.formToken, ...card(DECLINE) });
    answer = await postPage(sb, checkout.page, { formToken: answer.formToken, ...card(DECLINE) });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`https://merchant.example/return?checkoutId=${checkout.id}`);
    status = await checkoutStatus(checkout.id);
    expect(status.body.result).toBe(-4);
    expect(status.body.body.payments).toHaveLength(3);
  });

  it('answers -10 after the decline button', async () => {
    const checkout = await newCheckout();
    const answer = await submit(sb, checkout.page, { action: 'decline' });
    expect(answer.location).toBe(`https://merchant.example/return?checkoutId=${checkout.id}`);
    expect((await checkoutStatus(checkout.id)).body.result).toBe(-10);
  });

  it('saves the card when the customer ticks the INQUIRE box, and not when it is left unticked', async () => {
    const ticked = await newCheckout({ tokenize: 'inquire' });
    const page = await openPage(sb, ticked.page);
    expect(page.html).toMatch(/<input type="checkbox" id="pl-saveCard" name="saveCard" value="on"/);
    await postPage(sb, ticked.page, { formToken: page.formToken, ...card(APPROVE, { saveCard: 'on' }) });
    const paid = await checkoutStatus(ticked.id);
    const entry = paid.body.body.payments.find((p: any) => p.result === 0);
    expect(entry.body.token.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.body.token.displayHint).toBe('************1111');

    const unticked = await newCheckout({ tokenize: 'INQUIRE' });
    await submit(sb, unticked.page, card(APPROVE));
    const plain = await checkoutStatus(unticked.id);
    expect(plain.body.result).toBe(0);
    expect(plain.body.body.payments[0].body.token).toBeUndefined();
  });

  it('saves the card without asking when tokenize is TRUE, and says so on the form', async () => {
    const checkout = await newCheckout({ tokenize: 'true' });
    const page = await openPage(sb, checkout.page);
    expect(page.html).not.toContain('name="saveCard"');
    expect(page.html).toContain('will save this card for future purchases');
    await postPage(sb, checkout.page, { formToken: page.formToken, ...card(APPROVE) });
    const status = await checkoutStatus(checkout.id);
    expect(status.body.body.payments[0].body.token.token).toBeTruthy();
  });

  it('tokenizes a 3-D Secure card once the challenge passes', async () => {
    const checkout = await newCheckout({ tokenize: 'true' });
    const answer = await submit(sb, checkout.page, card(THREE_DS));
    expect((await checkoutStatus(checkout.id)).body.result).toBe(2);
    const challenge = await openPage(sb, answer.location!);
    const done = await postPage(sb, answer.location!, { formToken: challenge.formToken, action: 'submit', code: '1234' });
    expect(done.status).toBe(303);
    const status = await checkoutStatus(checkout.id);
    expect(status.body.result).toBe(0);
    expect(status.body.body.payments[0].body.token.token).toBeTruthy();
  });
});

describe('one-time form tokens', () => {
  it('never makes a second payment when the same form is posted twice at once', async () => {
    const link = await newLink();
    const page = await openPage(sb, link.page);
    const fields = { formToken: page.formToken, ...card(APPROVE) };
    const [a, b] = await Promise.all([postPage(sb, link.page, fields), postPage(sb, link.page, fields)]);
    expect(a.status).toBe(303);
    expect(b.status).toBe(303);
    expect(b.location).toBe(a.location);
    expect((await linkStatus(link.id)).body.body.payments).toHaveLength(1);
  });

  it('pays once when two tabs post their own forms at the same time; the other is refused with -8', async () => {
    const link = await newLink();
    const [tabA, tabB] = await Promise.all([openPage(sb, link.page), openPage(sb, link.page)]);
    const answers = await Promise.all([
      postPage(sb, link.page, { formToken: tabA.formToken, ...card(APPROVE) }),
      postPage(sb, link.page, { formToken: tabB.formToken, ...card(APPROVE) }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 400]);
    expect(answers.find((a) => a.status === 400)!.state).toBe('paid');
    const status = await linkStatus(link.id);
    expect(status.body.body.payments).toHaveLength(1);
    expect(status.body.body.link.status).toBe('PAID');
  });

  it('answers a form posted again after a failed attempt with the current page, without charging', async () => {
    const checkout = await newCheckout();
    const page = await openPage(sb, checkout.page);
    const fields = { formToken: page.formToken, ...card(DECLINE) };
    await postPage(sb, checkout.page, fields);
    const again = await postPage(sb, checkout.page, fields);
    expect(again.status).toBe(303);
    expect(again.location).toBe(checkout.page);
    expect((await checkoutStatus(checkout.id)).body.body.payments).toHaveLength(1);
  });

  it('refuses a missing or foreign token with the form again and no payment', async () => {
    const link = await newLink();
    const other = await newLink();
    const foreign = (await openPage(sb, other.page)).formToken;
    for (const formToken of [undefined, 'made-up', foreign]) {
      const answer = await postPage(sb, link.page, { formToken, ...card(APPROVE) });
      expect(answer.status).toBe(400);
      expect(answer.state).toBe('form');
      expect(answer.alert).toMatch(/nothing was charged/);
    }
    expect((await linkStatus(link.id)).body.description).toBe('Ok');
  });

  it('replays the 3-D Secure answer for a second post of the challenge form', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, card(THREE_DS));
    const challenge = await openPage(sb, answer.location!);
    const fields = { formToken: challenge.formToken, action: 'submit', code: '1234' };
    const first = await postPage(sb, answer.location!, fields);
    const second = await postPage(sb, answer.location!, fields);
    expect(second.location).toBe(first.location);
    expect((await linkStatus(link.id)).body.body.payments).toHaveLength(1);
  });
});

describe('framed pages (inside the library iframe)', () => {
  it('answers the end of the flow with a page that hands the redirect to the parent instead of a 303', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, { ...card(APPROVE), framed: '1' });
    expect(answer.status).toBe(200);
    expect(answer.state).toBe('result');
    const config = JSON.parse(/<script type="application\/json" id="pl-config">([^<]*)<\/script>/.exec(answer.html)![1]!);
    expect(config.redirect).toMatch(new RegExp(`^https://merchant\\.example/return\\?linkId=${link.id}&id=`));
    expect((await linkStatus(link.id)).body.body.link.status).toBe('PAID');
  });

  it('shows the form again for a failed attempt with attempts left', async () => {
    const link = await newLink();
    const answer = await submit(sb, link.page, { ...card(DECLINE), framed: '1' });
    expect(answer.status).toBe(200);
    expect(answer.state).toBe('form');
  });
});
