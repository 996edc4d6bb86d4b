/**
 * `envelopeText` (http/envelope.ts) writes the envelope around a body already serialized, for answers that
 * keep their body's text (an unpaid link's GET): it must be the text of `envelope`'s document, key for key.
 */
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/sandbox/domain/clock.js';
import { RandomIds } from '../../src/sandbox/domain/ids.js';
import { RESULTS } from '../../src/sandbox/errors.js';
import { envelope, envelopeText } from '../../src/sandbox/http/envelope.js';

describe('envelopeText', () => {
  it('is the JSON text of the envelope envelope() makes for the same body', () => {
    const ctx = { clock: new SandboxClock({ offsetMs: 0, frozenAt: Date.UTC(2026, 10, 26, 12, 0, 5, 250) }), ids: new RandomIds() };
    const body = { link: { linkId: 'abc', status: 'READY', brandIds: [1010] }, transaction: { amount: 10.5, currencyCode: 'EUR' } };
    for (const kind of [RESULTS.ok, RESULTS.success, RESULTS.completed]) {
      const text = envelopeText(ctx, kind, JSON.stringify(body));
      expect(text).toBe(JSON.stringify(envelope(ctx, kind, body)));
      expect(JSON.parse(text).header.requestTimestamp).toBe('2026-11-26T12:00:05Z');
    }
  });
});
