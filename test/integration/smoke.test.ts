import { describe, expect, it } from 'vitest';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

describe('sandbox core', () => {
  it('creates a payment link and reads it back by id with status READY', async () => {
    const created = await sb.post('/Gateway/v3/Paymentlinks', linkRequest());
    expect(created.status).toBe(200);
    expect(created.body.result).toBe(0);
    expect(created.body.description).toBe('Success');
    const linkId = created.body.body.link.linkId as string;
    expect(linkId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const read = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(read.body.body.link.status).toBe('READY');
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const res = await sb.get('/gateway/v3/nothing');
    expect(res.status).toBe(404);
    expect(res.body.body.error.code).toBe(1404);
  });
});
