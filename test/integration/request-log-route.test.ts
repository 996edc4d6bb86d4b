import { describe, expect, it } from 'vitest';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { pathOf, pathOfId } from '../../src/sandbox/domain/routes.js';
import { targetOfRequest, type TrafficRequest } from '../../src/sandbox/domain/advisor.js';

const sb = useSandbox();

describe('the route a request took', () => {
  it('is kept in the request log by name and parameters, a card number among them masked like the path', async () => {
    const created = await sb.post(pathOf('links.create'), linkRequest({ businessId: 'route-biz' }));
    const linkId = created.body.body.link.linkId as string;
    await sb.get(`${pathOfId('links.get', linkId).toUpperCase().replace(linkId.toUpperCase(), linkId)}/?businessId=route-biz`);
    await sb.get(`${pathOfId('payments.get', '4111111111111111')}?businessId=route-biz`);
    const rows = (await sb.get('/__sandbox/requests?businessId=route-biz')).body.body.requests as any[];
    expect(rows.map((r) => r.route)).toEqual([
      { name: 'links.create', params: {} },
      { name: 'links.get', params: { linkId } },
      { name: 'payments.get', params: { paymentId: expect.not.stringContaining('4111111111111111') } },
    ]);
  });

  it('is what the advisor reads a request as, not its path', () => {
    const request: TrafficRequest = {
      seq: 1,
      at: 0,
      method: 'GET',
      path: '/somewhere/else',
      query: '',
      status: 200,
      kind: 'api',
      businessId: 'b',
      route: { name: 'payments.get', params: { paymentId: 'p-1' } },
    };
    expect(targetOfRequest(request)).toEqual({ op: 'read', kind: 'payment', id: 'p-1' });
    // A row logged before routes were kept is still read by its method and path.
    const older: TrafficRequest = {
      seq: 2,
      at: 0,
      method: 'POST',
      path: pathOfId('payments.refund', 'p-2'),
      query: '',
      status: 200,
      kind: 'api',
      businessId: 'b',
    };
    expect(targetOfRequest(older)).toEqual({ op: 'follow-up', action: 'refund', id: 'p-2' });
  });
});
