/**
 * What the hosted pages show and send: the form's markup and headers, every terminal page, the 404 page,
 * refusal of a submission to a link that cannot be paid, escaping of merchant and customer values, and the
 * stylesheet and ES5 script.
 */
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { APPROVE, card, DECLINE, openPage, postPage, submit } from './hosted-form-helpers.js';

const sb = useSandbox();

async function newLink(link: Record<string, unknown> = {}): Promise<{ id: string; page: string }> {
  const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link }));
  expect(created.status).toBe(200);
  return { id: created.body.body.link.linkId, page: new URL(created.body.body.link.redirect.url).pathname };
}

async function newCheckout(checkout: Record<string, unknown> = {}): Promise<{ id: string; page: string }> {
  const created = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout }));
  expect(created.status).toBe(200);
  return { id: created.body.body.checkout.checkoutId, page: new URL(created.body.body.checkout.redirect.url).pathname };
}

function pageConfig(html: string): any {
  return JSON.parse(/<script type="application\/json" id="pl-config">([^<]*)<\/script>/.exec(html)![1]!);
}

function expectNoForm(html: string): void {
  expect(html).not.toMatch(/<form\b/);
  expect(html).not.toContain('name="formToken"');
  // Nothing to choose, so no test-card list either: the sandbox notice alone.
  expect(html).not.toContain('pl-card-group');
  expect(html).toContain('no real card is ever charged');
}

describe('the card form page', () => {
  it('is served with the security headers: CSP without inline script, any frame ancestor, no-store, nosniff, referrer policy', async () => {
    const link = await newLink();
    const page = await openPage(sb, link.page);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("form-action 'self' http: https:");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.headers.get('x-frame-options')).toBeNull();
    // Every script is external or an inert JSON block; no inline handlers or style attributes either.
    for (const tag of page.html.match(/<script\b[^>]*>/g)!) expect(tag).toMatch(/\bsrc="|type="application\/json"/);
    expect(page.html).not.toMatch(/\son[a-z]+=/i);
    expect(page.html).not.toMatch(/\sstyle=/i);
  });

  it('shows merchant, amount, offered brands, labelled fields with autocomplete hints, pay and decline buttons', async () => {
    const link = await newLink({ brandIds: [1010, 1030] });
    const { html, state } = await openPage(sb, link.page);
    expect(state).toBe('form');
    expect(html).toContain('biz-1');
    expect(html).toContain('12.50 EUR');
    expect(html).toContain('data-brand-id="1010">VISA<');
    expect(html).toContain('data-brand-id="1030">American Express<');
    expect(html).not.toContain('data-brand-id="1020"');
    for (const [name, autocomplete] of [
      ['cardNumber', 'cc-number'],
      ['expiryMonth', 'cc-exp-month'],
      ['expiryYear', 'cc-exp-year'],
      ['cvv', 'cc-csc'],
      ['holderName', 'cc-name'],
    ]) {
      expect(html).toMatch(new RegExp(`<label for="pl-${name}">`));
      expect(html).toMatch(new RegExp(`id="pl-${name}" name="${name}"[^>]*autocomplete="${autocomplete}"`));
    }
    expect(html).toMatch(/<form id="pl-card-form" method="post" action="\/gateway\/v3\/web\/paymentlinks\//);
    expect(html).toContain('name="action" value="pay"');
    expect(html).toContain('name="action" value="decline"');
    expect(html).toMatch(/role="alert" aria-live="assertive"/);
    expect(html).not.toContain('name="saveCard"');
  });

  it('lists every test card in the sandbox banner as a button that fills the form', async () => {
    const link = await newLink();
    const { html } = await openPage(sb, link.page);
    expect(html).toMatch(/class="pl-banner[ "]/);
    expect(html).toMatch(/<button type="button" class="pl-card-pick" data-number="4111111111111111"/);
    expect(html).toMatch(/data-number="4000000000003220"[^>]*>[^<]*<code>4000 0000 0000 3220<\/code> 3-D Secure/);
  });

  it('issues a new one-time token each time the form is shown', async () => {
    const link = await newLink();
    const a = await openPage(sb, link.page);
    const b = await openPage(sb, link.page);
    expect(a.formToken).toMatch(/^[\w-]{20,}$/);
    expect(b.formToken).not.toBe(a.formToken);
  });
});

describe('pages without a form', () => {
  it('says a paid link was already paid, offers no form and refuses a new submission with -8', async () => {
    const link = await newLink();
    const stale = await openPage(sb, link.page);
    await submit(sb, link.page, card(APPROVE));
    const page = await openPage(sb, link.page);
    expect(page.state).toBe('paid');
    expect(page.html).toContain('This has already been paid');
    expectNoForm(page.html);
    expect(page.html).not.toMatch(/name="cardNumber"/);
    expect(pageConfig(page.html).terminal).toEqual({ code: 2002, message: 'This has already been paid.', state: 'PAID' });

    const refused = await postPage(sb, link.page, { formToken: stale.formToken, ...card(APPROVE) });
    expect(refused.status).toBe(400);
    expect(refused.state).toBe('paid');
    expect(refused.alert).toMatch(/-8 Business rule error/);
    expectNoForm(refused.html);
    expect((await sb.get(`/gateway/v3/paymentlinks/${link.id}?businessId=biz-1`)).body.body.payments).toHaveLength(1);
  });

  it('shows the expired page for a link past its expiration time and a checkout past 30 minutes', async () => {
    const link = await newLink({ duration: 'PT1M' });
    const checkout = await newCheckout();
    const stale = await openPage(sb, checkout.page);
    sb.running.sandbox.clock.advance(31 * 60_000);
    for (const [path, state] of [
      [link.page, 'EXPIRED'],
      [checkout.page, 'TIMEOUT'],
    ] as const) {
      const page = await openPage(sb, path);
      expect(page.state).toBe('expired');
      expect(page.html).toMatch(/has expired/);
      expectNoForm(page.html);
      expect(pageConfig(page.html).terminal.state).toBe(state);
    }
    const refused = await postPage(sb, checkout.page, { formToken: stale.formToken, ...card(APPROVE) });
    expect(refused.status).toBe(400);
    expect(refused.state).toBe('expired');
    expect((await sb.get(`/gateway/v3/checkouts/${checkout.id}?businessId=biz-1`)).body.result).toBe(4);
  });

  it('shows the cancelled page for a cancelled link', async () => {
    const link = await newLink();
    const cancelled = await sb.post(`/gateway/v3/paymentlinks/${link.id}/cancel`, { header: { businessId: 'biz-1' } });
    expect(cancelled.status).toBe(200);
    const page = await openPage(sb, link.page);
    expect(page.state).toBe('cancelled');
    expect(page.html).toContain('was cancelled');
    expectNoForm(page.html);
  });

  it('shows the declined page after three failed attempts and the declined-by-customer page after the decline button', async () => {
    const link = await newLink();
    let answer = await submit(sb, link.page, card(DECLINE));
    answer = await postPage(sb, link.page, { formToken: answer.formToken, ...card(DECLINE) });
    await postPage(sb, link.page, { formToken: answer.formToken, ...card(DECLINE) });
    const declined = await openPage(sb, link.page);
    expect(declined.state).toBe('declined');
    expect(declined.html).toContain('failed three times');
    expectNoForm(declined.html);

    const checkout = await newCheckout();
    await submit(sb, checkout.page, { action: 'decline' });
    const byCustomer = await openPage(sb, checkout.page);
    expect(byCustomer.state).toBe('declinedbycustomer');
    expect(byCustomer.html).toContain('You declined this payment');
    expect(byCustomer.html).toContain(`href="https://merchant.example/return?checkoutId=${checkout.id}"`);
    expectNoForm(byCustomer.html);
  });

  it('answers an unknown link, checkout or 3-D Secure id with the 404 page', async () => {
    for (const path of ['/gateway/v3/web/paymentlinks/00000000-0000-4000-8000-000000000000', '/gateway/v3/web/checkouts/nope', '/gateway/v3/web/3ds/nope']) {
      const page = await openPage(sb, path);
      expect(page.status).toBe(404);
      expect(page.state).toBe('notfound');
      expect(page.html).toContain('Payment page not found');
      expect(page.headers.get('content-security-policy')).toContain('frame-ancestors *');
      expectNoForm(page.html);
    }
    const post = await postPage(sb, '/gateway/v3/web/paymentlinks/nope', card(APPROVE));
    expect(post.status).toBe(404);
    // Paths and methods no hosted page has answer as pages too, not with the API's envelope.
    for (const [method, path, status] of [
      ['GET', '/gateway/v3/web/nothing/at/all', 404],
      ['PUT', '/gateway/v3/web/paymentlinks/x', 405],
    ] as const) {
      const res = await fetch(`${sb.url}${path}`, { method });
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('text/html');
      await res.text();
    }
  });
});

describe('other failures of a page', () => {
  it('answers a form body over the limit with the error page, not an envelope', async () => {
    const link = await newLink();
    const answer = await postPage(sb, link.page, { formToken: 'x', holderName: 'a'.repeat(70 * 1024) });
    expect(answer.status).toBe(413);
    expect(answer.state).toBe('error');
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(answer.html).toContain('Something went wrong');
  });
});

describe('escaping and return URLs', () => {
  it('escapes a holder name carrying markup when the form is shown again', async () => {
    const link = await newLink();
    const attack = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const answer = await submit(sb, link.page, card(DECLINE, { holderName: attack }));
    expect(answer.state).toBe('form');
    expect(answer.html).not.toContain('<script>alert(1)');
    expect(answer.html).not.toContain('<img src=x');
    expect(answer.html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('escapes a returnUrl carrying markup on the pages that link back to the shop', async () => {
    const returnUrl = 'https://x.example/?q="><script>alert(1)</script>';
    const checkout = await newCheckout({ returnUrl });
    await submit(sb, checkout.page, { action: 'decline' });
    const page = await openPage(sb, checkout.page);
    expect(page.html).not.toContain('<script>alert(1)');
    const link = page.html.match(/<a id="pl-return" href="([^"]*)"/)![1]!;
    expect(link).not.toMatch(/[<>"]/);
    expect(link).toContain('checkoutId=');

    const framedLink = await newLink({ returnUrl });
    const framed = await submit(sb, framedLink.page, { ...card(APPROVE), framed: '1' });
    expect(framed.html).not.toContain('<script>alert(1)');
    expect(pageConfig(framed.html).redirect).toMatch(/^https:\/\/x\.example\/\?q=/);
  });

  it('refuses a javascript: or data: returnUrl when the link or checkout is created', async () => {
    for (const returnUrl of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'JaVaScRiPt:alert(document.domain)']) {
      const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link: { returnUrl } }));
      expect(link.status).toBe(400);
      expect(link.body.result).toBe(-1);
      expect(link.body.body.error.code).toBe(1002);
      expect(link.body.body.error.message).toContain('body.link.returnUrl');
      const checkout = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout: { returnUrl } }));
      expect(checkout.status).toBe(400);
      expect(checkout.body.body.error.message).toContain('body.checkout.returnUrl');
    }
  });
});

describe('assets', () => {
  it('serves the stylesheet with a custom property for every docs/api.md style option and plain fallbacks', async () => {
    const res = await fetch(`${sb.url}/gateway/v3/web/assets/hosted.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/css');
    const css = await res.text();
    for (const property of [
      '--pl-font-family',
      '--pl-background',
      '--pl-primary',
      '--pl-accent',
      '--pl-secondary',
      '--pl-info',
      '--pl-warning',
      '--pl-error',
      '--pl-success',
      '--pl-form-background',
      '--pl-form-container-background',
      '--pl-form-font-size',
      '--pl-form-border-width',
      '--pl-form-border-radius',
      '--pl-button-color',
      '--pl-button-background',
      '--pl-button-border-color',
      '--pl-button-font-size',
      '--pl-button-border-width',
      '--pl-button-border-radius',
    ]) {
      expect(css).toContain(`var(${property},`);
    }
    expect(css).toContain('background: #8ec03f; background: var(--pl-button-background, #8ec03f);');
  });

  it('serves the page script as ES5 JavaScript', async () => {
    const res = await fetch(`${sb.url}/gateway/v3/web/assets/hosted.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/javascript');
    const script = await res.text();
    expect(() => parse(script, { ecmaVersion: 5, sourceType: 'script' })).not.toThrow();
    expect(script).toContain('event.source !== window.parent');
  });

  it('serves a page script that carries no card rule of its own: brand ids, ranges and test cards come as page data', async () => {
    const script = await (await fetch(`${sb.url}/gateway/v3/web/assets/hosted.js`)).text();
    expect(script).not.toMatch(/\b(1010|1020|1030|1040|1050|1060|1090|1210|6011|3528|2221|622126|4111111111111111)\b/);
    const link = await newLink();
    const { html } = await openPage(sb, link.page);
    const config = JSON.parse(/<script type="application\/json" id="pl-config">(.*?)<\/script>/s.exec(html)![1]!);
    expect(config.cards.ranges).toContainEqual({ brandId: 1030, from: '37', to: '37' });
    expect(config.cards.brands['1030']).toMatchObject({ name: 'American Express', cvvLength: 4, groups: [[4, 6, 5]] });
    expect(config.cards.testCards['36227206271667']).toBe(1060);
    expect(config.fields).toMatchObject({ cardNumber: 'cardNumber', cvv: 'cvv', holderName: 'holderName' });
  });

  it('answers an unknown asset with 404', async () => {
    const res = await fetch(`${sb.url}/gateway/v3/web/assets/other.js`);
    expect(res.status).toBe(404);
  });
});
