import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { createLink, customerReturns, getWithBody } from './client.js';

const sb = useSandbox();

describe('state survives a restart on the same database (docs/test-cards.md, "Direct payments": "always")', () => {
  it('gives the same token for the same card after a restart, and keeps links and their payments', async () => {
    const request = {
      header: { businessId: 'conf-biz' },
      body: { brandId: 1010, card: { holderName: 'Ada Lovelace', number: '4111111111111111', expiryMonth: '09', expiryYear: '2033' } },
    };
    const before = await sb.post('/gateway/v3/tokens', request);
    const { link } = await createLink(sb);
    const back = await customerReturns(link.redirect.url);
    await sb.restart();
    const after = await sb.post('/gateway/v3/tokens', request);
    expect(after.body.body.token).toBe(before.body.body.token);
    const read = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(read.body.body.link.status).toBe('PAID');
    expect(read.body.body.payments[0].body.transaction.id).toBe(back.searchParams.get('id'));
  });
});

describe('a GET that carries a JSON body is answered as if it had none (docs/test-cards.md)', () => {
  it('reads a link and a checkout with a {} body', async () => {
    const { link } = await createLink(sb);
    const res = await getWithBody(`${sb.url}/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`, '{}');
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.link.linkId).toBe(link.linkId);
    const byCode = await getWithBody(`${sb.url}/gateway/v3/paymentlinks?businessId=conf-biz&trackingCode=nothing-${Date.now()}`, '{}');
    expect(byCode.status).toBe(404);
  });
});
