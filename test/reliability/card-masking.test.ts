/**
 * Issue 16, item 4: no card number or CVV in the request log, the dashboard or the stored records,
 * whatever shape or place it is sent in. Every text the sandbox keeps is searched with the separators
 * taken out.
 */
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const PAN = '4111111111111111';
const CVV = '987';

function payment(card: Record<string, unknown>) {
  return {
    action: 'payment',
    header: { businessId: 'biz-mask' },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('mask') },
      card: { number: PAN, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace', ...card },
    },
  };
}

/** Every digit run of `text` with spaces, dashes, plus signs and their URL encodings removed. */
function squeezed(text: string): string {
  return text.replace(/%20|%2[dD]|[ +\-]/g, '');
}

test('card numbers and CVVs in any shape and any place are masked in the log, the dashboard and the records', async () => {
  const sent = [
    sb.post('/gateway/v3/payments', payment({ number: ['4111', '1111', '1111', '1111'] })),
    sb.post('/gateway/v3/payments', payment({ number: { digits: PAN } })),
    sb.post('/gateway/v3/payments', payment({ number: Number(PAN) })),
    sb.post('/gateway/v3/payments', payment({ cvv: [CVV] })),
    sb.post('/gateway/v3/payments', payment({ cvv: { value: CVV } })),
    sb.post('/gateway/v3/payments', payment({ cvv: Number(CVV) })),
    sb.post('/gateway/v3/payments', payment({ holderName: 'Ada 4111 1111 1111 1111' })),
    sb.post('/gateway/v3/payments', payment({ holderName: 'Ada 4111-1111-1111-1111 x' })),
    sb.post('/gateway/v3/payments', { header: { businessId: 'biz-mask' }, body: { note: `card ${PAN.replace(/(\d{4})/g, '$1 ').trim()} 12` } }),
    sb.get(`/gateway/v3/payments/${PAN}?businessId=biz-mask`),
    sb.get(`/gateway/v3/payments/4111-1111-1111-1111?businessId=biz-mask`),
    sb.get(`/gateway/v3/payments?businessId=biz-mask&trackingCode=4111%201111%201111%201111`),
    sb.get(`/gateway/v3/payments?businessId=biz-mask&trackingCode=4111+1111+1111+1111`),
  ];
  const answers = await Promise.all(sent);
  // The holder names with a number in them were approved: their records keep the name, masked.
  const approved = answers.slice(6, 8).map((a) => a.body?.body?.transaction?.id ?? a.body?.body?.payment?.id);
  expect(answers[6]!.status).toBe(200);

  const log = await sb.get('/__sandbox/requests?limit=1000');
  expect(log.status).toBe(200);
  const logText = log.text;
  expect(log.body.body.requests.length).toBeGreaterThanOrEqual(sent.length);
  expect(squeezed(logText)).not.toContain(PAN);
  // Every value sent under a CVV key is masked, whatever its type.
  for (const row of log.body.body.requests) {
    const cvv = row.request?.body?.body?.card?.cvv;
    if (cvv !== undefined) expect(cvv).toBe('***');
  }
  expect(logText).not.toMatch(/"987"|\b987\b/);

  const dashboard = await sb.get('/__sandbox/dashboard/requests');
  expect(squeezed(dashboard.text)).not.toContain(PAN);

  for (const answer of answers) expect(squeezed(answer.text)).not.toContain(PAN);
  expect(approved.length).toBe(2);

  // Nothing stored holds the number: every text column of every table, the log included.
  sb.running.sandbox.store.flush();
  const db = new Database(sb.dbPath, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    for (const table of tables) {
      for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Array<Record<string, unknown>>) {
        const text = squeezed(JSON.stringify(row));
        expect(text, `a row of ${table}`).not.toContain(PAN);
      }
    }
  } finally {
    db.close();
  }
});
