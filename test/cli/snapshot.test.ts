/**
 * `paylink snapshot save|restore|list|delete` and `paylink reset --business` as real processes against a
 * real sandbox: exit codes, JSON output, and what they do to the state.
 */
import { runCli, type CliRun } from '../helpers/cli.js';
import { describe, expect, it } from 'vitest';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { timeoutMs: 20_000 });
}

async function linkCount(businessId: string): Promise<number> {
  return (await sb.get(`/__sandbox/links?businessId=${businessId}`)).body.body.total;
}

describe('paylink snapshot', () => {
  it('saves, lists, restores and deletes a snapshot, printing what it did', async () => {
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'cli-snap' }));
    const save = await paylink(['snapshot', 'save', 'seeded']);
    expect(save, save.stderr).toMatchObject({ code: 0 });
    expect(save.stdout).toMatch(/^Saved snapshot seeded \(\d+ KB, [\d.]+ ms\) in .*sandbox\.db\.snapshots\.\n$/);
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'cli-snap' }));
    expect(await linkCount('cli-snap')).toBe(2);

    const list = await paylink(['snapshot', 'list', '--json']);
    expect(JSON.parse(list.stdout).snapshots.map((s: { name: string }) => s.name)).toEqual(['seeded']);
    expect((await paylink(['snapshot', 'list'])).stdout).toMatch(/^seeded\s+\d+ KB\s+saved \d{4}-/);

    const restore = await paylink(['snapshot', 'restore', 'seeded', '--json']);
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ restored: 'seeded', clock: { frozen: false } });
    expect(await linkCount('cli-snap')).toBe(1);

    expect(await paylink(['snapshot', 'delete', 'seeded'])).toMatchObject({ code: 0, stdout: 'Deleted snapshot seeded.\n' });
    expect((await paylink(['snapshot', 'list'])).stdout).toContain('No snapshots');
  });

  it('exits 3 naming the snapshot when it does not exist, and 2 for a name that cannot be one', async () => {
    const missing = await paylink(['snapshot', 'restore', 'nothing-here']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('Snapshot "nothing-here" not found');
    const bad = await paylink(['snapshot', 'save', '../up']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a snapshot name');
  });
});

describe('paylink reset --business', () => {
  it("deletes one business's data and says the others are unchanged", async () => {
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'cli-keep' }));
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'cli-worker' }));
    const run = await paylink(['reset', '--business', 'cli-worker', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Business cli-worker reset: .*1 links.* deleted; other businesses unchanged\.\n$/);
    expect(await linkCount('cli-worker')).toBe(0);
    expect(await linkCount('cli-keep')).toBe(1);
    const asked = await paylink(['reset', '--business', 'cli-keep']);
    expect(asked.code).toBe(2);
    expect(await linkCount('cli-keep')).toBe(1);
  });
});
