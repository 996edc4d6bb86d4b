/**
 * Issue 32, items 3, 5 and 12: card numbers in every spelling an attack pass found unmasked (separated by
 * `.`, `/`, `_`, a no-break space, a comma, a tab, a line break or four spaces; URL-encoded in a path or a
 * query), CVVs under `card_cvv`, `cvn` and `csc`, a card number in a descriptor (refused, 1002) or in a
 * token's `customer` (stored masked), control characters in a descriptor (refused like a holder name), and
 * a megabyte of digits masked in linear time and logged cut.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { maskDigitRuns, maskedJsonText, maskQuery } from '../../src/sandbox/domain/mask.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const PAN = '4111111111111111';
const BIZ = 'biz-spell';

/** `4111<sep>1111<sep>1111<sep>1111`. */
const spelled = (sep: string) => PAN.match(/\d{4}/g)!.join(sep);
const SEPARATORS = ['.', '/', '_', '\u00a0', ',', '\t', '\n', '    ', ' - ', '%2E', '%2F', '%5F', '%C2%A0', '%2C', '%09', '%0A'];

/** Every digit of `text` in order: what a reader could rebuild from it. */
const digitsOf = (text: string) => text.replace(/\D/g, '');

function payment(transaction: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  return {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('spell'), ...transaction },
      card: { number: PAN, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace', ...card },
    },
  };
}

describe('masking rule', () => {
  it.each(SEPARATORS)('masks a card number whose groups are separated by %j', (sep) => {
    const text = `card ${spelled(sep)} end`;
    expect(digitsOf(decodeURIComponent(maskDigitRuns(text)))).not.toContain(PAN);
    expect(digitsOf(decodeURIComponent(maskQuery(`q=${encodeURIComponent(text)}`)))).not.toContain(PAN);
  });

  it('masks a card number with percent-encoded digits in a query', () => {
    const encoded = [...PAN].map((d) => `%3${d}`).join('');
    expect(maskQuery(`trackingCode=${encoded}`)).not.toContain(encoded);
    expect(digitsOf(maskQuery(`trackingCode=${encoded}`))).not.toContain(PAN);
  });

  it('stars out CVVs under card_cvv, cvn, csc and cardCvv, whatever the case', () => {
    const masked = maskedJsonText(JSON.stringify({ card_cvv: '987', CVN: '986', csc: 985, cardCvv: ['984'] }))!;
    expect(JSON.parse(masked)).toEqual({ card_cvv: '***', CVN: '***', csc: '***', cardCvv: '***' });
  });

  it('keeps a log body valid JSON when digits in an array are masked', () => {
    const masked = maskedJsonText(JSON.stringify({ groups: [spelled(',')] }))!;
    expect(() => JSON.parse(masked)).not.toThrow();
    expect(digitsOf(masked)).not.toContain(PAN);
  });

  it('masks a megabyte of digits: every Luhn stretch starred, the rest kept', () => {
    const text = '4'.repeat(1_000_000) + ' ' + PAN;
    const masked = maskDigitRuns(text);
    expect(masked.startsWith('4444')).toBe(true);
    expect(masked.endsWith('411111******1111')).toBe(true);
  });
});

describe('the sandbox', () => {
  it('refuses a descriptor holding a card number in any spelling, or control characters, with 1002', async () => {
    for (const descriptor of [`D ${spelled(' ')}`, `D ${spelled('.')}`, `D ${PAN}`, 'Shop\u001b]0;owned\u0007', 'Shop\nnext']) {
      const res = await sb.post('/gateway/v3/payments', payment({ descriptor }));
      expect([descriptor, res.status, res.body.body?.error?.code]).toEqual([descriptor, 400, 1002]);
      expect(res.body.body.error.message).toContain('body.transaction.descriptor');
      expect(digitsOf(res.text)).not.toContain(PAN);
    }
    const ok = await sb.post('/gateway/v3/payments', payment({ descriptor: 'Shop 2026-11 order 42' }));
    expect(ok.status).toBe(200);
    expect(ok.body.body.transaction.descriptor).toBe('Shop 2026-11 order 42');
  });

  it('stores and answers a token customer with card data masked', async () => {
    const customer = { name: 'Ada', note: `card ${spelled('/')}`, card: { number: PAN, card_cvv: '987' }, old: [{ cvn: '986' }] };
    const made = await sb.post('/gateway/v3/tokens', { header: { businessId: BIZ }, body: { card: payment().body.card, customer } });
    expect(made.status).toBe(200);
    const token = made.body.body.token as string;
    const read = await sb.get(`/gateway/v3/tokens/${token}?businessId=${BIZ}`);
    expect(read.body.body.customer).toMatchObject({ name: 'Ada', card: { number: '411111******1111', card_cvv: '***' }, old: [{ cvn: '***' }] });
    const admin = await sb.get(`/__sandbox/tokens?businessId=${BIZ}`);
    for (const text of [read.text, admin.text]) {
      expect(digitsOf(text)).not.toContain(PAN);
      expect(text).not.toMatch(/"98[67]"/);
    }
  });

  it('keeps no card number of any spelling in the log, the dashboard, the answers or the database', async () => {
    const answers = await Promise.all([
      ...SEPARATORS.map((sep) =>
        sb.post('/gateway/v3/payments', { header: { businessId: BIZ }, body: { note: `card ${spelled(sep)} x`, card_cvv: '987', cvn: '987', csc: '987' } }),
      ),
      ...['%2E', '%2F', '%5F', '%C2%A0'].map((sep) => sb.get(`/gateway/v3/payments/${spelled(sep)}?businessId=${BIZ}`)),
      ...['%2E', '%2C', '%09', '%0A'].map((sep) => sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${spelled(sep)}`)),
      sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${[...PAN].map((d) => `%3${d}`).join('')}`),
    ]);
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    const log = await sb.get('/__sandbox/requests?limit=1000&bodies=1');
    const dashboard = await sb.get('/__sandbox/dashboard/requests');
    for (const text of [log.text, dashboard.text]) {
      expect(digitsOf(decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')))).not.toContain(PAN);
      expect(text).not.toContain('"987"');
    }
    sb.running.sandbox.store.flush();
    const db = new Database(sb.dbPath, { readonly: true });
    try {
      for (const table of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]) {
        for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Array<Record<string, unknown>>) {
          expect(digitsOf(decodeURIComponent(JSON.stringify(row).replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))), `a row of ${table}`).not.toContain(PAN);
        }
      }
    } finally {
      db.close();
    }
  });

  it('answers health after ten one-megabyte bodies of digits, and logs each cut', async () => {
    const digits = '4'.repeat(1_000_000 - 64);
    const bodies = await Promise.all(
      Array.from({ length: 10 }, () => sb.post('/gateway/v3/payments', { header: { businessId: BIZ }, body: { note: digits } })),
    );
    for (const answer of bodies) expect(answer.status).toBe(400);
    expect((await sb.get('/__sandbox/health')).status).toBe(200);
    const log = await sb.get('/__sandbox/requests?limit=10&bodies=1&path=/gateway/v3/payments');
    const rows = log.body.body.requests as Array<{ request?: { body?: { note?: string } } }>;
    // Under a burst the log keeps a sample of large rows (docs/reliability.md, "Limits"): those kept are cut.
    const notes = rows.map((r) => r.request?.body?.note).filter((n): n is string => n !== undefined && n.includes('truncated'));
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) {
      expect(note.length).toBeLessThan(20_000);
      expect(note).toContain('[truncated: 999936 characters]');
    }
  });
});
