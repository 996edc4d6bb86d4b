import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { loadFixtures } from '../../src/cli/seed/load.js';

const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;

/** Starts a fresh sandbox with `seed`, loads the fixtures, and answers the id map and an approval code. */
async function seededRun(seed: string) {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-det-'));
  const running = await startSandbox({ port: 0, db: join(dir, 'db.sqlite'), seed });
  try {
    const { ids } = await loadFixtures([`${FIXTURES}paid-link.json`, `${FIXTURES}tokenized-checkout.json`], {
      connection: { baseUrl: running.url, businessId: 'det' },
      admin: { baseUrl: running.url },
      env: {},
    });
    const payment = await fetch(`${running.url}/gateway/v3/payments/${ids.token_payment}?businessId=sandbox-business`).then((r) => r.json());
    return { ids, approvalCode: payment.body.card?.approvalCode as string | undefined, unexpected: running.sandbox.unexpectedErrors.length };
  } finally {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('deterministic mode', () => {
  it('gives two fresh sandboxes with the same seed the same ids and approval codes for the same fixtures', async () => {
    const first = await seededRun('ci-seed');
    const second = await seededRun('ci-seed');
    expect(Object.keys(first.ids)).toEqual(['paid_link', 'paid_link_payment', 'tokenized_checkout', 'checkout_payment', 'token_payment']);
    expect(second.ids).toEqual(first.ids);
    expect(first.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
    expect(second.approvalCode).toBe(first.approvalCode);
    expect(first.unexpected + second.unexpected).toBe(0);
  });

  it('gives another seed other ids', async () => {
    const a = await seededRun('seed-a');
    const b = await seededRun('seed-b');
    expect(b.ids.paid_link).not.toBe(a.ids.paid_link);
  });
});
