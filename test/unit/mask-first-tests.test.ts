/**
 * Masking's cheap first tests (domain/mask.ts) never change what is masked: `maskDigitRuns` skips the
 * run-by-run scan for texts whose runs are too short to hold a card number, and `textNeedsValue` answers
 * false without reading keys when no key can name card data. Random texts, seeded so a failure repeats.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/sandbox/domain/faults.js';
import { maskDigitRuns, maskedJsonText, scanDigitRuns, textNeedsValue } from '../../src/sandbox/domain/mask.js';

const CARDS = ['4111111111111111', '5555555555554444', '378282246310005', '4242424242424242', '6011111111111117'];
/** What texts are made of: digits most of all, every separator (also URL-encoded), ids, letters, JSON. */
const PIECES = [
  ...'0123456789'.split(''),
  ...'0123456789'.split(''),
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '+',
  '-',
  '.',
  '/',
  '_',
  ',',
  '%20',
  '%2d',
  '%C2%A0',
  '%',
  'a',
  'F',
  'x',
  'T',
  ':',
  '"',
  '01a20b82-7736-4000-923c-000000000000',
  '2026-11-26T14:00:14Z',
];

function text(next: () => number): string {
  let out = '';
  const length = Math.floor(next() * 40);
  for (let i = 0; i < length; i++) {
    if (next() < 0.03) {
      // A card number, whole or split in groups by one separator.
      const card = CARDS[Math.floor(next() * CARDS.length)]!;
      out += next() < 0.5 ? card : card.replace(/(\d{4})(?=\d)/g, `$1${PIECES[20 + Math.floor(next() * 11)]}`);
    } else {
      out += PIECES[Math.floor(next() * PIECES.length)];
    }
  }
  return out;
}

describe("masking's first tests", () => {
  it('maskDigitRuns masks exactly what the full scan masks, for 20,000 random texts', () => {
    const next = seededRandom('mask-first-tests: digit runs');
    let masked = 0;
    let untouched = 0;
    for (let i = 0; i < 20_000; i++) {
      const t = text(next);
      const full = scanDigitRuns(t);
      expect(maskDigitRuns(t), JSON.stringify(t)).toBe(full);
      if (full === t) untouched += 1;
      else masked += 1;
    }
    // Both kinds were tried: texts with card numbers to mask, and texts with none.
    expect(masked).toBeGreaterThan(1_000);
    expect(untouched).toBeGreaterThan(1_000);
  });

  it('textNeedsValue still finds every spelling of a card key, and a value under one is never kept', () => {
    const next = seededRandom('mask-first-tests: card keys');
    const keys = [
      'number',
      'cardNumber',
      'PAN',
      'card_no',
      'ccNumber',
      'cardPan',
      'primaryAccountNumber',
      'cvv',
      'CVC2',
      'cvn',
      'csc',
      'cid',
      'securityCode',
      'card-cvv',
      'cvvCode',
      'secret',
    ];
    for (let i = 0; i < 2_000; i++) {
      // Each key spelled with random case and `_`, `-` or spaces between its letters.
      const key = [...keys[i % keys.length]!]
        .map((c) => (next() < 0.5 ? c.toUpperCase() : c.toLowerCase()) + (next() < 0.2 ? ['_', '-', ' '][Math.floor(next() * 3)] : ''))
        .join('');
      const body = JSON.stringify({ header: { businessId: 'b1' }, body: { card: { holderName: 'Ada', [key]: '4111111111111111' } } });
      expect(textNeedsValue(body), key).toBe(true);
      expect(maskedJsonText(body), key).not.toContain('4111111111111111');
    }
  });

  it('textNeedsValue says false for an answer without card keys, and true for a JSON escape', () => {
    const answer = JSON.stringify({
      result: 0,
      body: { link: { linkId: '01a20b82-7736-4000-923c-000000000000', status: 'READY' }, transaction: { amount: 10.5 } },
    });
    expect(textNeedsValue(answer)).toBe(false);
    expect(textNeedsValue('{"c\\u0076v":"123"}')).toBe(true);
  });
});
