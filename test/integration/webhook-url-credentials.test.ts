/**
 * Issue 22, item 7: a password inside a notifyUrl or an endpoint URL (`http://user:pass@host/...`) is never
 * shown: not by the admin API, the request log, the dashboard, the advisor or the CLI's commands. The
 * receiver is real and on port 0, and it gets the credentials (the delivery still authenticates).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { captureUi } from '../helpers/cli.js';
import { eventsList, eventsShow, webhooksList } from '../../src/cli/commands/webhooks.js';
import { runLogs } from '../../src/cli/commands/logs.js';
import { advise } from '../../src/cli/commands/advise.js';

const sb = useSandbox({ webhookSecret: 'credentials-secret-0001', webhookRetry: 'fast' });
const PASSWORD = 'Pa55wordInUrl';
const BIZ = 'creds-biz';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

it('a password in a notifyUrl or an endpoint URL is masked in the admin API, request log, dashboard, advisor and CLI, and still sent to the receiver', async () => {
  const port = rx.port;
  const notifyUrl = `http://merchant:${PASSWORD}@127.0.0.1:${port}/notify`;
  const hookUrl = `http://hookuser:${PASSWORD}x@127.0.0.1:${port}/hook`;
  expect((await sb.post('/__sandbox/webhooks', { businessId: BIZ, url: hookUrl })).status).toBe(200);
  const paid = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('creds'), notifyUrl },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Ada Lovelace' },
    },
  });
  expect(paid.body.result).toBe(0);
  // A link with a notifyUrl too (its creation is logged with the URL in the body).
  expect((await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: BIZ, transaction: { notifyUrl } }))).status).toBe(200);
  await rx.waitFor(2, (d) => d.path === '/notify' || d.path === '/hook');
  // The receiver got the credentials: masking is for display only.
  const sent = rx.deliveries.find((d) => d.path === '/notify')!;
  expect(Buffer.from(String(sent.headers.authorization).slice(6), 'base64').toString()).toBe(`merchant:${PASSWORD}`);

  const paymentId = paid.body.body.transaction.id as string;
  const eventId = (await sb.get(`/__sandbox/events?paymentId=${paymentId}`)).body.body.events[0].id as string;
  const shown: Record<string, string> = {
    'GET /__sandbox/events': (await sb.get(`/__sandbox/events?businessId=${BIZ}`)).text,
    'GET /__sandbox/events/{id}': (await sb.get(`/__sandbox/events/${eventId}`)).text,
    'GET /__sandbox/webhooks': (await sb.get(`/__sandbox/webhooks?businessId=${BIZ}`)).text,
    'GET /__sandbox/requests': (await sb.get(`/__sandbox/requests?limit=1000&bodies=1`)).text,
    'dashboard webhooks': (await sb.get('/__sandbox/dashboard/webhooks')).text,
    'dashboard event': (await sb.get(`/__sandbox/dashboard/events/${eventId}`)).text,
    'dashboard requests': (await sb.get('/__sandbox/dashboard/requests')).text,
    'dashboard payment': (await sb.get(`/__sandbox/dashboard/payments/${paymentId}`)).text,
    'GET /__sandbox/advice': (await sb.get(`/__sandbox/advice?businessId=${BIZ}`)).text,
  };
  const conn = { baseUrl: sb.url };
  for (const json of [false, true]) {
    const list = captureUi({ json });
    await eventsList(conn, list.ui, { businessId: BIZ });
    const show = captureUi({ json });
    await eventsShow(conn, show.ui, eventId);
    const hooks = captureUi({ json });
    await webhooksList(conn, hooks.ui, { businessId: BIZ });
    const logs = captureUi({ json });
    await runLogs(conn, logs.ui, { bodies: true, limit: 500 });
    const advice = captureUi({ json });
    await advise(conn, advice.ui, { business: BIZ });
    Object.assign(shown, {
      [`paylink events list ${json}`]: list.out() + list.err(),
      [`paylink events show ${json}`]: show.out() + show.err(),
      [`paylink webhooks list ${json}`]: hooks.out() + hooks.err(),
      [`paylink logs --bodies ${json}`]: logs.out() + logs.err(),
      [`paylink advise ${json}`]: advice.out() + advice.err(),
    });
  }
  for (const [where, text] of Object.entries(shown)) {
    expect([where, text.includes(PASSWORD)]).toEqual([where, false]);
  }
  // The URLs are still recognisable: the user kept, the password starred out.
  expect(shown['GET /__sandbox/events']).toContain(`http://merchant:***@127.0.0.1:${port}/notify`);
  expect(shown['GET /__sandbox/webhooks']).toContain(`http://hookuser:***@127.0.0.1:${port}/hook`);
  expect(shown['GET /__sandbox/requests']).toContain(`merchant:***@127.0.0.1:${port}/notify`);
  expect(shown['paylink events show false']).toContain(`merchant:***@127.0.0.1:${port}/notify`);
});
