/**
 * Issue 16, item 7: the request log is held to a size in bytes, long bodies are stored truncated with a
 * marker, and listings are bounded whatever the log holds.
 */
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const MAX = 512 * 1024;
const sb = useSandbox({ requestLogMaxBytes: MAX });

test('40 requests with 200 KB bodies keep the log under its 512 KiB cap, each body cut at 16 KiB with a marker', async () => {
  const filler = 'x'.repeat(200_000);
  for (let i = 0; i < 40; i++) {
    const answer = await sb.post('/gateway/v3/paymentlinks', { header: { businessId: 'biz-log' }, body: { note: filler, round: i } });
    expect(answer.status).toBe(400);
    // A read writes the log's window: every request is stored, none sampled away.
    await sb.get('/__sandbox/requests?limit=1');
  }
  const listing = await sb.get('/__sandbox/requests?limit=1000');
  expect(listing.status).toBe(200);
  const rows = (listing.body.body.requests as Array<{ method: string; request?: unknown }>).filter((r) => r.method === 'POST');
  expect(rows.length).toBeGreaterThan(10);
  expect(listing.text.length).toBeLessThan(MAX + 64 * 1024);
  for (const row of rows) {
    expect(typeof row.request).toBe('string');
    expect(row.request as string).toMatch(/… \[truncated: \d+ characters\]$/);
    expect((row.request as string).length).toBeLessThan(16 * 1024 + 64);
  }
  // The newest request is the last row: what was pruned is the oldest.
  expect((rows.at(-1) as unknown as { seq: number }).seq).toBe(40);
  expect((rows[0] as unknown as { seq: number }).seq).toBeGreaterThan(1);
  sb.running.sandbox.store.flush();
  const db = new Database(sb.dbPath, { readonly: true });
  try {
    const stored = db
      .prepare('SELECT sum(length(path) + coalesce(length(request), 0) + coalesce(length(response), 0)) FROM request_log')
      .pluck()
      .get() as number;
    expect(stored).toBeLessThanOrEqual(MAX);
    expect(stored).toBeGreaterThan(MAX / 2);
  } finally {
    db.close();
  }
});
