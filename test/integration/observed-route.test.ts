import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type ObservedRequest, type RunningSandbox } from '../../src/sandbox/index.js';
import { linkRequest } from '../helpers/sandbox.js';

// Observers are told which route answered a request, by name, with its parameters: readers of the
// traffic (the advisor) need not parse paths the router already understood.
let sb: RunningSandbox;
const seen: ObservedRequest[] = [];

beforeAll(async () => {
  sb = await startSandbox({ port: 0, db: ':memory:', observers: [(entry) => seen.push(entry)] });
});
afterAll(async () => {
  await sb?.close();
});

/** Resolves with the first observed request that `match` accepts, once it was observed. */
async function observed(match: (entry: ObservedRequest) => boolean): Promise<ObservedRequest> {
  for (;;) {
    const found = seen.find(match);
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the observed request', () => {
  it('names the route and its parameters, as declared and as requested', async () => {
    const created = await fetch(`${sb.url}/gateway/v3/paymentlinks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(linkRequest({ businessId: 'observed', transaction: { amount: 10 }, link: { brandIds: [1010] } })),
    }).then((r) => r.json());
    const linkId: string = created.body.link.linkId;
    // Fixed segments in another letter case still name the declared route; the id is taken verbatim.
    await fetch(`${sb.url}/Gateway/V3/PaymentLinks/${linkId}/?businessId=observed`);

    const post = await observed((e) => e.method === 'POST' && e.path === '/gateway/v3/paymentlinks');
    expect(post.route).toEqual({ name: 'links.create', params: {} });
    const get = await observed((e) => e.method === 'GET' && e.path.startsWith('/Gateway'));
    expect(get.route).toEqual({ name: 'links.get', params: { linkId } });
  });

  it('has no route for a path no route serves', async () => {
    await fetch(`${sb.url}/gateway/v3/nothing-here`);
    const missing = await observed((e) => e.path === '/gateway/v3/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.route).toBeUndefined();
  });
});
