/**
 * `paylink follow` and `paylink listen` as a new user calls them (issue 31, item 12), real processes and a
 * real sandbox: `follow <linkId>` of a link created by the merchant's code (not by this folder's CLI) needs
 * no `--return-url`, the sandbox knows it; `listen --business-id shop` forwards only that business's
 * events, as `--business` does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const sb = useSandbox();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-follow-'));
  dirs.push(dir);
  return dir;
}

function pay(businessId: string) {
  return sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode(businessId) },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Grace Hopper' },
    },
  });
}

describe('paylink follow (issue 31, item 12)', () => {
  it("follows a link created by the merchant's code without --return-url: the sandbox knows it", async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', {
      header: { businessId: 'follow-shop' },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', trackingCode: uniqueCode('follow') },
        link: { returnUrl: 'http://127.0.0.1:9/shop/return', brandIds: [1010] },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const linkId = created.body.body.link.linkId as string;
    const payer = tempDir();
    const paid = await runCli(['pay', linkId, '--outcome', 'approved', '--no-follow', '--base-url', sb.url, '--business-id', 'follow-shop'], { cwd: payer });
    expect(paid.code, paid.stderr).toBe(0);

    // Another folder: its journal knows nothing of the link.
    const run = await runCli(['follow', linkId, '--json', '--base-url', sb.url, '--business-id', 'follow-shop'], { cwd: tempDir() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:9/shop/return\\?linkId=${linkId}&id=`));
    expect(run.json.state).toBe('PAID');
  });
});

describe('paylink listen --business-id (issue 31, item 12)', () => {
  it('forwards only the events of the business given with --business-id', async () => {
    const target = await startReceiver();
    const { child, err } = spawnCli(['listen', '--forward-to', target.url, '--json', '--base-url', sb.url, '--business-id', 'scoped-shop'], { cwd: tempDir() });
    try {
      await expect.poll(() => err(), { timeout: 15_000 }).toMatch(/secret|Forwarding|signature/i);
      await pay('other-shop');
      await pay('scoped-shop');
      await expect.poll(() => target.deliveries.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      // In order: had the other business's event been forwarded, it would have come first.
      const businesses = target.deliveries.map((d) => JSON.stringify(d.body));
      expect(businesses.every((text) => !text.includes('other-shop'))).toBe(true);
      expect(businesses.some((text) => text.includes('scoped-shop'))).toBe(true);
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      await target.close();
    }
  });
});

describe('paylink listen --since on a moved clock (issue 31, item 12)', () => {
  it('replays only the events of the last minute of the sandbox clock after the clock moved 5 minutes', async () => {
    const cwd = tempDir();
    const business = 'since-shop';
    const old = await pay(business);
    expect(old.status).toBe(200);
    const moved = await runCli(['clock', 'advance', '5m', '--base-url', sb.url], { cwd });
    expect(moved.code, moved.stderr).toBe(0);
    const recent = await pay(business);
    const recentId = String(recent.body.body.transaction.id);
    const target = await startReceiver();
    const { child, out, err } = spawnCli(['listen', '--forward-to', target.url, '--json', '--base-url', sb.url, '--business-id', business, '--since', '1m'], {
      cwd,
    });
    try {
      await expect.poll(() => target.deliveries.some((d) => JSON.stringify(d.body).includes(recentId)), { timeout: 15_000 }).toBe(true);
      // Each forward says when the event was made on the sandbox clock, the time --since compares: the
      // recent event is 5 minutes ahead of the wall clock, within the last minute of the sandbox's.
      await expect.poll(() => out(), { timeout: 15_000 }).toContain(recentId);
      const line = JSON.parse(
        out()
          .split('\n')
          .find((l) => l.includes(recentId))!,
      );
      const clock = (await sb.get('/__sandbox/clock')).body.body;
      const sandboxNow = Date.parse(clock.now);
      expect(sandboxNow - Date.parse(line.createdAt)).toBeGreaterThanOrEqual(0);
      expect(sandboxNow - Date.parse(line.createdAt)).toBeLessThan(60_000);
      // In order: an event of 5 minutes ago would have been forwarded before the recent one.
      const oldId = String(old.body.body.transaction.id);
      expect(
        target.deliveries.some((d) => JSON.stringify(d.body).includes(oldId)),
        err(),
      ).toBe(false);
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      await target.close();
      await runCli(['clock', 'reset', '--base-url', sb.url], { cwd });
    }
  });
});
