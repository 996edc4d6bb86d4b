import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { loadFixtures } from '../../src/cli/seed/load.js';
import { FixtureFormatError, parseFixture } from '../../src/cli/seed/format.js';
import { resolveValue } from '../../src/cli/seed/references.js';
import { FixtureStepError } from '../../src/cli/seed/runner.js';
import { readdirSync, readFileSync } from 'node:fs';
import { OUTCOME_NAMES } from '../../src/sandbox/domain/test-cards.js';

const sb = useSandbox();
const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'paylink-fixtures-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function load(files: string[], env: NodeJS.ProcessEnv = {}) {
  return loadFixtures(files, { connection: { baseUrl: sb.url, businessId: 'fixture-default' }, admin: { baseUrl: sb.url }, env });
}

function writeFixture(name: string, value: unknown): string {
  const path = join(tmp, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const BIZ = 'sandbox-business';

describe('example fixtures', () => {
  it('loads the paid link: the link is PAID with one approved payment', async () => {
    const { ids } = await load([`${FIXTURES}paid-link.json`]);
    const link = await sb.get(`/gateway/v3/paymentlinks/${ids.paid_link}?businessId=${BIZ}`);
    expect(link.body.body.link.status).toBe('PAID');
    expect(link.body.body.payments).toHaveLength(1);
    expect(link.body.body.payments[0].body.transaction.id).toBe(ids.paid_link_payment);
    expect(link.body.body.payments[0].result).toBe(0);
  });

  it('loads the declined link: three declined attempts leave it DECLINED', async () => {
    const { ids } = await load([`${FIXTURES}declined-link.json`]);
    const link = await sb.get(`/gateway/v3/paymentlinks/${ids.declined_link}?businessId=${BIZ}`);
    expect(link.body.body.link.status).toBe('DECLINED');
    expect(link.body.body.payments.map((p: any) => p.result)).toEqual([-4, -4, -4]);
  });

  it('loads the tokenized checkout: paid, tokenized, and a later payment with the token is approved', async () => {
    const { ids } = await load([`${FIXTURES}tokenized-checkout.json`]);
    const checkout = await sb.get(`/gateway/v3/checkouts/${ids.tokenized_checkout}?businessId=${BIZ}`);
    expect(checkout.body.result).toBe(0);
    const token = checkout.body.body.payments.at(-1).body.token.token as string;
    expect(token).toMatch(/[0-9a-f-]{36}/);
    const payment = await sb.get(`/gateway/v3/payments/${ids.token_payment}?businessId=${BIZ}`);
    expect(payment.body.result).toBe(0);
    expect(payment.body.body.transaction.amount).toBe(9.99);
  });

  it('loads the authorization, partial capture and partial refund', async () => {
    const { ids } = await load([`${FIXTURES}authorize-capture-refund.json`]);
    const capture = await sb.get(`/gateway/v3/payments/${ids.capture}?businessId=${BIZ}`);
    expect(capture.body.body.transaction).toMatchObject({ action: 'capture', amount: 40, parentId: ids.authorization });
    const refund = await sb.get(`/gateway/v3/payments/${ids.refund}?businessId=${BIZ}`);
    expect(refund.body.body.transaction).toMatchObject({ action: 'refund', amount: 10 });
  });

  it('loads the expired checkout: after the clock step it answers 4 Timeout', async () => {
    const { ids } = await load([`${FIXTURES}expired-checkout.json`]);
    const checkout = await sb.get(`/gateway/v3/checkouts/${ids.expired_checkout}?businessId=${BIZ}`);
    expect(checkout.body.result).toBe(4);
    expect(checkout.body.description).toBe('Timeout');
    await sb.post('/__sandbox/clock', { reset: true });
  });

  it('loads the same file twice without colliding tracking codes', async () => {
    const first = await load([`${FIXTURES}paid-link.json`]);
    const second = await load([`${FIXTURES}paid-link.json`]);
    expect(second.ids.paid_link).not.toBe(first.ids.paid_link);
  });

  it('takes the business id from the environment when the file asks for it', async () => {
    const { ids } = await load([`${FIXTURES}paid-link.json`], { PAYLINK_BUSINESS_ID: 'env-business' });
    expect((await sb.get(`/gateway/v3/paymentlinks/${ids.paid_link}?businessId=env-business`)).status).toBe(200);
    expect((await sb.get(`/gateway/v3/paymentlinks/${ids.paid_link}?businessId=${BIZ}`)).status).toBe(404);
  });
});

describe('fixture references and failures', () => {
  it('refuses a reference to a step that does not exist before sending anything, naming the step', async () => {
    const path = writeFixture('bad-ref.json', {
      steps: [
        {
          name: 'my_link',
          create: 'link',
          params: { transaction: { amount: 1, currencyCode: 'EUR' }, link: { returnUrl: 'https://m.example/r', brandIds: [1010] } },
        },
        { name: 'pay_it', pay: '${my_lnk:body.link.linkId}' },
      ],
    });
    const before = (await sb.get('/__sandbox/requests?limit=1')).body.body.lastSeq;
    await expect(load([path])).rejects.toThrow(
      /step 2 "pay_it": \$\{my_lnk:body\.link\.linkId\} refers to "my_lnk", which is not an earlier step \(earlier steps: my_link\)/,
    );
    const after = await sb.get(`/__sandbox/requests?since=${before}&path=/gateway`);
    expect(after.body.body.requests).toEqual([]);
  });

  it('stops at a reference whose path is missing from the earlier result, naming both steps', async () => {
    const path = writeFixture('bad-path.json', {
      steps: [
        {
          name: 'my_link',
          create: 'link',
          params: { transaction: { amount: 1, currencyCode: 'EUR' }, link: { returnUrl: 'https://m.example/r', brandIds: [1010] } },
        },
        { name: 'pay_it', pay: '${my_link:body.link.nothing}' },
      ],
    });
    await expect(load([path])).rejects.toThrow('step 2 "pay_it": ${my_link:body.link.nothing}: step "my_link" has no value at body.link.nothing');
  });

  it('stops at a failing request with the step name, the request and the response', async () => {
    const path = writeFixture('fails.json', {
      steps: [
        {
          name: 'broken',
          create: 'link',
          params: { transaction: { amount: -3, currencyCode: 'EUR' }, link: { returnUrl: 'https://m.example/r', brandIds: [1010] } },
        },
      ],
    });
    const error = await load([path]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixtureStepError);
    const e = error as FixtureStepError;
    expect(e.message).toContain('step 1 "broken" failed: POST');
    expect(e.message).toContain('body.transaction.amount');
    expect(e.request).toMatchObject({ method: 'POST', body: { body: { transaction: { amount: -3 } } } });
    expect((e.response as any).result).toBe(-1);
  });

  it('needs an environment variable without a default, and uses the default otherwise', async () => {
    const path = writeFixture('env.json', {
      steps: [
        {
          name: 'l',
          create: 'link',
          params: { transaction: { amount: 2, currencyCode: '${env:FIXTURE_CURRENCY}' }, link: { returnUrl: 'https://m.example/r', brandIds: [1010] } },
        },
      ],
    });
    await expect(load([path])).rejects.toThrow('environment variable FIXTURE_CURRENCY is not set');
    const { ids } = await load([path], { FIXTURE_CURRENCY: 'USD' });
    const link = await sb.get(`/gateway/v3/paymentlinks/${ids.l}?businessId=fixture-default`);
    expect(link.body.body.transaction.currencyCode).toBe('USD');
  });

  it('validates the format with messages that name the file and the step', () => {
    const bad = (value: unknown) => () => parseFixture(JSON.stringify(value), 'f.json');
    expect(() => parseFixture('{', 'f.json')).toThrow(FixtureFormatError);
    expect(bad({ steps: [] })).toThrow('f.json: "steps" must be a non-empty array.');
    expect(bad({ steps: [{ name: 'a', create: 'widget', params: {} }] })).toThrow('f.json: step 1 "a": "create" must be link, checkout, payment or token.');
    expect(bad({ steps: [{ name: 'a', pay: 'x', cancel: 'y' }] })).toThrow('give only one action, not pay and cancel');
    expect(bad({ steps: [{ name: 'a', pay: 'x', outcome: 'maybe' }] })).toThrow('unknown outcome "maybe"');
    expect(bad({ steps: [{ name: 'a', pay: 'x', colour: 'red' }] })).toThrow('unknown property "colour" for a pay step');
    expect(bad({ steps: [{ name: 'a', clock: { advance: '1m', reset: true } }] })).toThrow('exactly one of advance, set or reset');
    expect(
      bad({
        steps: [
          { name: 'a', clock: { reset: true } },
          { name: 'a', clock: { reset: true } },
        ],
      }),
    ).toThrow('step 2 "a": the name "a" is used by an earlier step');
    expect(bad({ steps: [{ name: 'a', pay: '${oops}' }] })).toThrow('${oops} is not a reference');
  });
});

describe('fixture JSON Schema', () => {
  const schema = JSON.parse(readFileSync(`${FIXTURES}schema.json`, 'utf8'));
  const examples = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && f !== 'schema.json');

  it('offers exactly the outcomes the sandbox knows', () => {
    expect(schema.$defs.payStep.properties.outcome.enum).toEqual([...OUTCOME_NAMES]);
  });

  it('describes every property of every example step, and every example passes the parser', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    const kinds: Record<string, string> = {
      create: 'createStep',
      pay: 'payStep',
      cancel: 'cancelStep',
      capture: 'captureStep',
      refund: 'refundStep',
      clock: 'clockStep',
    };
    for (const file of examples) {
      const text = readFileSync(`${FIXTURES}${file}`, 'utf8');
      const parsed = parseFixture(text, file);
      for (const key of Object.keys(JSON.parse(text))) expect(Object.keys(schema.properties), `${file}: ${key}`).toContain(key);
      for (const step of parsed.steps) {
        const kind = Object.keys(kinds).find((k) => k in step)!;
        const properties = Object.keys(schema.$defs[kinds[kind]!].properties);
        for (const key of Object.keys(step)) expect(properties, `${file}: ${key}`).toContain(key);
      }
    }
  });
});

describe('fixture reference resolution', () => {
  const results = new Map<string, unknown>([['auth', { body: { transaction: { id: 'p-1', amount: 50 }, payments: [{ id: 'first' }] } }]]);

  it('keeps the JSON type of a whole-string reference and interpolates inside longer text', () => {
    const resolved = resolveValue(
      {
        amount: '${auth:body.transaction.amount}',
        note: 'order ${auth:body.transaction.id} of ${env:SHOP:-acme}',
        first: '${auth:body.payments[0].id}',
        list: ['${env:SHOP}'],
      },
      { results, env: { SHOP: 'shop-9' } },
    );
    expect(resolved).toEqual({ amount: 50, note: 'order p-1 of shop-9', first: 'first', list: ['shop-9'] });
    expect(resolveValue('${env:MISSING:-fallback}', { results, env: {} })).toBe('fallback');
    expect(resolveValue('${env:EMPTY:-}', { results, env: {} })).toBe('');
  });
});
