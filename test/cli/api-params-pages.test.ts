/**
 * `paylink api -d path=value` beside `--data`, and `--page` on the list commands past 200 (issue 31, item
 * 19), as real processes against a real sandbox.
 */
import { describe, expect, it } from 'vitest';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/cli.js';

const sb = useSandbox();
const BIZ = 'params-shop';

const cli = (args: string[]) => runCli([...args, '--base-url', sb.url, '--business-id', BIZ]);
const CARD = JSON.stringify({
  action: 'payment',
  body: { card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' } },
});

describe('paylink api -d path=value', () => {
  it('sets nested fields on top of --data, numbers typed as JSON, and passes a GET parameter in the query', async () => {
    const code = uniqueCode('params');
    const paid = await cli([
      'api',
      'POST',
      'payments',
      '--data',
      CARD,
      '-d',
      'body.transaction.amount=10.5',
      '-d',
      'body.transaction.currencyCode=EUR',
      '-d',
      `body.transaction.trackingCode=${code}`,
      '--json',
    ]);
    expect(paid.code, paid.stderr + paid.stdout).toBe(0);
    expect(paid.json.result, paid.stdout).toBe(0);
    expect(paid.json.body.transaction).toMatchObject({ trackingCode: code, amount: 10.5, currencyCode: 'EUR' });
    const found = await cli(['api', 'GET', 'payments', '-d', `trackingCode=${code}`, '--json']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.json).toHaveLength(1);
    expect(found.json[0].body.id).toBe(paid.json.body.id);
  });

  it('keeps a quoted value a string and builds the whole body from parameters alone', async () => {
    const created = await cli([
      'api',
      'POST',
      'paymentlinks',
      '-d',
      'body.transaction.amount=7',
      '-d',
      'body.transaction.currencyCode=EUR',
      '-d',
      'body.transaction.authorizationMode=payment',
      '-d',
      `body.transaction.trackingCode="007"`,
      '-d',
      'body.link.duration=P1D',
      '-d',
      'body.link.returnUrl=https://shop.example/done',
      '--json',
    ]);
    expect(created.code, created.stderr + created.stdout).toBe(0);
    expect(created.json.body.transaction.trackingCode).toBe('007');
  });

  it('refuses __proto__, constructor and prototype, a path through a value, and nesting in a GET (exit 2)', async () => {
    for (const bad of [
      ['-d', '__proto__.polluted=1'],
      ['-d', 'body.constructor.prototype.x=1'],
      ['-d', 'body.transaction=1', '-d', 'body.transaction.amount=2'],
    ]) {
      const run = await cli(['api', 'POST', 'payments', ...bad]);
      expect(run.code, `${bad.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(/-d /);
    }
    const get = await cli(['api', 'GET', 'payments', '-d', 'a.b=1']);
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('query string');
  });
});

describe('list --page', () => {
  it('reads links past the 200 a page holds, page by page', async () => {
    const business = 'pages-shop';
    for (let i = 0; i < 205; i++) {
      const res = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: business }));
      expect(res.status).toBe(200);
    }
    const first = await runCli(['link', 'list', '--limit', '200', '--json', '--base-url', sb.url, '--business-id', business]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ total: 205, page: 1 });
    expect(first.json.items).toHaveLength(200);
    const second = await runCli(['link', 'list', '--limit', '200', '--page', '2', '--json', '--base-url', sb.url, '--business-id', business]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.json.items).toHaveLength(5);
    const ids = new Set([...first.json.items, ...second.json.items].map((i: { id: string }) => i.id));
    expect(ids.size).toBe(205);

    const people = await runCli(['link', 'list', '--limit', '200', '--base-url', sb.url, '--business-id', business]);
    expect(people.stderr).toContain('Showing the newest 200 of 205; --page 2 for the next 5');
    const bad = await runCli(['link', 'list', '--page', '0', '--base-url', sb.url]);
    expect(bad.code).toBe(2);
  });
});
