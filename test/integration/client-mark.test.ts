/**
 * The request mark (issue 23.3): paylink's own tools send `x-paylink-client: <tool>`, the sandbox reads it
 * with readClientMark and the request log keeps it with each request, for the advisor to read.
 */
import { describe, expect, it } from 'vitest';
import { ApiClient, adminRequest } from '../../src/cli/client.js';
import { CLIENT_MARK_HEADER, CLIENT_TOOLS, readClientMark } from '../../src/sandbox/http/client-mark.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

async function logged(pathPart: string): Promise<Array<{ path: string; method: string; client?: string }>> {
  const res = await sb.get(`/__sandbox/requests?path=${encodeURIComponent(pathPart)}&limit=1000`);
  expect(res.status).toBe(200);
  return res.body.body.requests;
}

describe('readClientMark', () => {
  it('names each of paylink tools from Node headers or a Headers object, in any letter case', () => {
    for (const tool of CLIENT_TOOLS) {
      expect(readClientMark({ [CLIENT_MARK_HEADER]: tool })).toBe(tool);
      expect(readClientMark(new Headers({ 'X-Paylink-Client': ` ${tool.toUpperCase()} ` }))).toBe(tool);
    }
  });

  it('answers undefined for no header, an unknown tool, or two different tools', () => {
    expect(readClientMark({})).toBeUndefined();
    expect(readClientMark({ [CLIENT_MARK_HEADER]: 'curl' })).toBeUndefined();
    expect(readClientMark({ [CLIENT_MARK_HEADER]: '' })).toBeUndefined();
    expect(readClientMark({ [CLIENT_MARK_HEADER]: ['cli', 'fixtures'] })).toBeUndefined();
    expect(readClientMark({ [CLIENT_MARK_HEADER]: ['cli', 'cli'] })).toBe('cli');
  });
});

describe('the request log keeps the mark', () => {
  it('stores the tool of a marked request and nothing for an unmarked one', async () => {
    const code = uniqueCode('mark');
    const body = {
      header: { businessId: 'mark-shop' },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: code },
        link: { brandIds: [1010], returnUrl: 'https://shop.example/r' },
      },
    };
    expect(
      (await sb.post('/gateway/v3/paymentlinks', body, { headers: { 'content-type': 'application/json', [CLIENT_MARK_HEADER]: 'dashboard' } })).status,
    ).toBe(200);
    const unmarked = await sb.post('/gateway/v3/paymentlinks', {
      ...body,
      body: { ...body.body, transaction: { ...body.body.transaction, trackingCode: `${code}-2` } },
    });
    expect(unmarked.status).toBe(200);
    const rows = (await logged('/gateway/v3/paymentlinks')).filter((r) => r.method === 'POST');
    expect(rows.at(-2)!.client).toBe('dashboard');
    expect(rows.at(-1)!.client).toBeUndefined();
  });

  it('the CLI client marks its API, page and admin requests "cli" unless told another tool', async () => {
    const cli = new ApiClient({ baseUrl: sb.url, businessId: 'mark-cli' });
    const created = await cli.post('/gateway/v3/paymentlinks', {
      body: {
        transaction: { amount: 3, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode('mark') },
        link: { brandIds: [1010], returnUrl: 'https://shop.example/r' },
      },
    });
    const linkId = created.body.body.link.linkId as string;
    await cli.get(`/gateway/v3/paymentlinks/${linkId}`);
    await cli.page(created.body.body.link.redirect.url as string);
    await new ApiClient({ baseUrl: sb.url, businessId: 'mark-cli', client: 'fixtures' }).get(`/gateway/v3/paymentlinks/${linkId}`, { trackingCode: undefined });
    await adminRequest({ baseUrl: sb.url, client: 'listen' }, 'POST', '/__sandbox/clock', { advance: '1s' });
    const rows = await logged(linkId);
    expect(rows.map((r) => `${r.method} ${r.client}`)).toEqual(['GET cli', 'GET cli', 'GET fixtures']);
    const clock = (await logged('/__sandbox/clock')).filter((r) => r.method === 'POST');
    expect(clock.at(-1)!.client).toBe('listen');
  });
});
