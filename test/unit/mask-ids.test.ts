/**
 * Card masking spares ids (issue 23.5): a digit run that is part of a UUID or a longer hexadecimal token is
 * not a card number, even when its digits pass Luhn; card numbers next to such ids are still masked.
 */
import { describe, expect, it } from 'vitest';
import { maskDigitRuns, maskedJsonText, maskQuery } from '../../src/sandbox/domain/mask.js';
import { luhnValid } from '../../src/sandbox/domain/test-cards.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

/** UUIDs (v4 and the sandbox's v7-like ids) holding a stretch of 13-19 digits that passes Luhn. */
const UUIDS = [
  '01a20b82-7736-4000-923c-000000000000',
  '60ffb593-1d04-4930-9847-1462462074ac',
  '0c633155-7599-4200-8745-679384a45241',
  'b39673d5-6044-4278-9396-ffa2a30f582b',
  '420e8e33-9594-4c37-9900-726727102d82',
  '12345678-1234-4000-8123-123456789012',
];
/** Hexadecimal ids without dashes (a UUID's 32 digits, an object id, a hash) with such a stretch. */
const HEX_IDS = ['6d302ce91202465491415275d9a9de92', 'd4842194683340138b3f869710b1d3e8', '5f1c8277364000923c4b2a1e'];

/** True when some stretch of 13-19 digits of `text`'s digit runs (separators dropped) passes Luhn. */
function holdsLuhnStretch(text: string): boolean {
  for (const run of text.match(/\d(?:-?\d)*/g) ?? []) {
    const digits = run.replace(/-/g, '');
    for (let i = 0; i < digits.length; i++) for (let j = i + 13; j <= Math.min(digits.length, i + 19); j++) if (luhnValid(digits.slice(i, j))) return true;
  }
  return false;
}

describe('card masking and ids', () => {
  it('the ids of these tests do hold digit runs that pass Luhn', () => {
    for (const id of [...UUIDS, ...HEX_IDS]) expect(holdsLuhnStretch(id), id).toBe(true);
  });

  it.each(UUIDS)('leaves UUID %s whole, alone, in a path, a query and a JSON body, in either case', (id) => {
    expect(maskDigitRuns(id)).toBe(id);
    expect(maskDigitRuns(id.toUpperCase())).toBe(id.toUpperCase());
    expect(maskDigitRuns(`/gateway/v3/paymentlinks/${id}/cancel`)).toBe(`/gateway/v3/paymentlinks/${id}/cancel`);
    expect(maskQuery(`businessId=shop&linkId=${id}`)).toBe(`businessId=shop&linkId=${id}`);
    expect(maskedJsonText(`{"link":{"linkId":"${id}"},"url":"http://x/r?linkId=${id}&id=${id}"}`)).toBe(
      `{"link":{"linkId":"${id}"},"url":"http://x/r?linkId=${id}&id=${id}"}`,
    );
    expect(maskDigitRuns(`urn:uuid:${id}`)).toBe(`urn:uuid:${id}`);
  });

  it.each(HEX_IDS)('leaves hexadecimal id %s whole', (id) => {
    expect(maskDigitRuns(id)).toBe(id);
    expect(maskDigitRuns(`/events/${id}/resend`)).toBe(`/events/${id}/resend`);
  });

  it('still masks a card number beside an id, glued to a word, or in a short token', () => {
    const id = UUIDS[0]!;
    expect(maskDigitRuns(`${id} 4111111111111111`)).toBe(`${id} 411111******1111`);
    expect(maskDigitRuns(`4111 1111 1111 1111 ${id}`)).toBe(`411111******1111 ${id}`);
    expect(maskDigitRuns(`${id}/4111-1111-1111-1111`)).toBe(`${id}/411111******1111`);
    expect(maskDigitRuns('Ada4111111111111111')).toBe('Ada411111******1111');
    expect(maskDigitRuns('card4111111111111111x')).toBe('card411111******1111x');
    expect(maskDigitRuns('4111111111111111abc')).toBe('411111******1111abc');
    expect(maskDigitRuns('ref-4111111111111111')).toBe('ref-411111******1111');
    expect(maskDigitRuns('4111-1111-1111-1111-abcd')).toBe('411111******1111-abcd');
  });
});

describe('the request log and its ids', () => {
  it('keeps ids whole in the log, so a search by id finds them, and on the dashboard', async () => {
    for (const id of UUIDS) {
      await sb.post(`/gateway/v3/paymentlinks/${id}/cancel`, { header: { businessId: 'mask-ids' } });
      await sb.get(`/gateway/v3/paymentlinks?businessId=mask-ids&trackingCode=${id}`);
    }
    for (const id of UUIDS) {
      const found = await sb.get(`/__sandbox/requests?path=${id}&limit=10`);
      expect(
        found.body.body.requests.map((r: { path: string }) => r.path),
        id,
      ).toEqual([`/gateway/v3/paymentlinks/${id}/cancel`]);
      const lookups = await sb.get(`/__sandbox/requests?path=/gateway/v3/paymentlinks&method=GET&limit=1000`);
      expect(lookups.text).toContain(`trackingCode=${id}`);
    }
    const dashboard = await sb.get('/__sandbox/dashboard/requests');
    for (const id of UUIDS) expect(dashboard.text).toContain(id);
  });
});
