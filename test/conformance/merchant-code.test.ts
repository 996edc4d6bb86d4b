/**
 * What merchant code written against the provider saw (issue 21, docs/compatibility.md): functional suites
 * that ran against its staging environment, shop integrations, a generic payment-library driver, and
 * HTTP exchanges recorded from it. Written from that behaviour, with plain HTTP.
 */
import { describe, expect, it } from 'vitest';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { expectInputError } from './client.js';

const sb = useSandbox();

describe('link creation answers as the retrieval does', () => {
  it('carries threeDSecure false and tokenize FALSE by default', async () => {
    const res = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.link).toMatchObject({ status: 'READY', threeDSecure: false, tokenize: 'FALSE' });
  });

  it('carries threeDSecure true when the link asked for it, with body.threeDSecure {version: "2"} beside it', async () => {
    const request = linkRequest({ link: { threeDSecure: true, tokenize: 'true' } });
    const res = await sb.post('/gateway/v3/paymentlinks', { ...request, body: { ...request.body, threeDSecure: { version: '2' } } });
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.link).toMatchObject({ status: 'READY', threeDSecure: true, tokenize: 'TRUE' });
    const read = await sb.get(`/gateway/v3/paymentlinks/${res.body.body.link.linkId}?businessId=biz-1`);
    expect(read.body.body.link).toEqual(res.body.body.link);
  });

  it('refuses a 3-D Secure version that is not one', async () => {
    const request = linkRequest({ link: { threeDSecure: true } });
    const res = await sb.post('/gateway/v3/paymentlinks', { ...request, body: { ...request.body, threeDSecure: { version: 'three' } } });
    expectInputError(res, 1002, 'body.threeDSecure.version');
  });

  it('takes the customer, addresses, order and option a link request may carry beside the link', async () => {
    const request = linkRequest({ transaction: { trackingCode: uniqueCode('extras') } });
    const res = await sb.post('/gateway/v3/paymentlinks', {
      ...request,
      body: {
        ...request.body,
        customer: { givenName: 'Ada', familyName: 'Lovelace', birthDate: '1987-07-28T00:00:00+00:00' },
        billingAddress: { street: 'Straat', houseNumber: '1', city: 'Stad', zip: '1111AA', countryCode: 'NL' },
        order: { orderLines: [{ productCode: 'A', itemAmount: 1.5, quantity: 1, totalAmount: 1.5 }] },
      },
    });
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
  });
});
