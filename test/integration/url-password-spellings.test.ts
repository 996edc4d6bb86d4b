/**
 * Issue 32, item 7: a password in a notifyUrl is masked wherever URLs leave the sandbox, in every spelling
 * the sandbox accepts (`http://`, the backslash spelling `http:\\user:pw@host` that URL parsers read as
 * `http://`, and `http:user:pw@host` with no slashes), and the operator's listings of payments, links and
 * checkouts show it masked too.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { captureUi } from '../helpers/cli.js';
import { eventsList, eventsShow } from '../../src/cli/commands/webhooks.js';
import { runLogs } from '../../src/cli/commands/logs.js';
import { maskUrlPasswords } from '../../src/sandbox/domain/mask.js';

const sb = useSandbox({ webhookSecret: 'spellings-secret-0001', webhookRetry: 'fast' });

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

const SPELLINGS: Array<[string, (password: string, port: number) => string]> = [
  ['forward slashes', (pw, port) => `http://merchant:${pw}@127.0.0.1:${port}/notify`],
  ['backslashes', (pw, port) => `http:\\\\merchant:${pw}@127.0.0.1:${port}/notify`],
  ['mixed slashes', (pw, port) => `http:/\\merchant:${pw}@127.0.0.1:${port}/notify`],
  ['no slashes', (pw, port) => `http:merchant:${pw}@127.0.0.1:${port}/notify`],
];

it('masks every spelling the URL parser accepts, in plain and JSON-escaped text', () => {
  for (const [, spell] of SPELLINGS) {
    const url = spell('Secret1', 8080);
    expect(url, 'the sandbox accepts it').toMatch(/^http/);
    expect(new URL(url).password).toBe('Secret1');
    expect(maskUrlPasswords(url)).not.toContain('Secret1');
    expect(maskUrlPasswords(JSON.stringify({ notifyUrl: url }))).not.toContain('Secret1');
  }
});

it.each(SPELLINGS)('a notifyUrl with %s keeps its password out of every listing, the log, the dashboard and the CLI', async (spelling, spell) => {
  const password = `Pw${spelling.replace(/\W/g, '')}9`;
  const biz = `spell-${spelling.replace(/\W/g, '-')}`;
  const notifyUrl = spell(password, rx.port);
  const delivered = rx.deliveries.length;
  const paid = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: biz },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('spell'), notifyUrl },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Ada Lovelace' },
    },
  });
  expect(paid.body.result).toBe(0);
  expect((await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: biz, transaction: { notifyUrl } }))).status).toBe(200);
  expect((await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: biz, transaction: { notifyUrl } }))).status).toBe(200);
  await rx.waitFor(delivered + 1, (d) => d.path === '/notify');

  const paymentId = paid.body.body.transaction.id as string;
  const eventId = (await sb.get(`/__sandbox/events?paymentId=${paymentId}`)).body.body.events[0].id as string;
  const shown: Record<string, string> = {
    'GET /__sandbox/payments': (await sb.get(`/__sandbox/payments?businessId=${biz}`)).text,
    'GET /__sandbox/links': (await sb.get(`/__sandbox/links?businessId=${biz}`)).text,
    'GET /__sandbox/checkouts': (await sb.get(`/__sandbox/checkouts?businessId=${biz}`)).text,
    'GET /__sandbox/events': (await sb.get(`/__sandbox/events?businessId=${biz}`)).text,
    'GET /__sandbox/events/{id}': (await sb.get(`/__sandbox/events/${eventId}`)).text,
    'GET /__sandbox/requests': (await sb.get('/__sandbox/requests?limit=1000&bodies=1')).text,
    'dashboard requests': (await sb.get('/__sandbox/dashboard/requests')).text,
    'dashboard event': (await sb.get(`/__sandbox/dashboard/events/${eventId}`)).text,
    'dashboard payment': (await sb.get(`/__sandbox/dashboard/payments/${paymentId}`)).text,
    'dashboard payments': (await sb.get('/__sandbox/dashboard/payments')).text,
  };
  const conn = { baseUrl: sb.url };
  for (const json of [false, true]) {
    const list = captureUi({ json });
    await eventsList(conn, list.ui, { businessId: biz });
    const show = captureUi({ json });
    await eventsShow(conn, show.ui, eventId);
    const logs = captureUi({ json });
    await runLogs(conn, logs.ui, { bodies: true, limit: 500 });
    Object.assign(shown, {
      [`paylink events list ${json}`]: list.out() + list.err(),
      [`paylink events show ${json}`]: show.out() + show.err(),
      [`paylink logs --bodies ${json}`]: logs.out() + logs.err(),
    });
  }
  for (const [where, text] of Object.entries(shown)) expect([where, text.includes(password)]).toEqual([where, false]);
  expect(shown['GET /__sandbox/payments']).toContain('merchant:***@127.0.0.1');
});
