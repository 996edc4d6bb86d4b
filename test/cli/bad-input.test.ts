/**
 * One rule for bad input (issue 23, item 10): a value the CLI can check itself is a usage error (exit 2)
 * before anything is sent; every missing flag is named at once; on a terminal with CI set, the message
 * says CI mode turned questions off. The real CLI against a real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { hasScript, runInTty } from '../helpers/tty.js';

const sb = useSandbox();
const cwd = mkdtempSync(join(tmpdir(), 'paylink-bad-input-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function paylink(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd, env });
}

async function requestCount(): Promise<number> {
  return (await sb.get('/__sandbox/requests?limit=1')).body.body.lastSeq as number;
}

describe('values the CLI can check itself are usage errors (exit 2), sending nothing', () => {
  it('refuses a --status that is not a state of the kind listed', async () => {
    const before = await requestCount();
    const bogus = await paylink(['link', 'list', '--status', 'bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('--status: expected one of READY, PENDING, PAID');
    expect((await paylink(['checkout', 'list', '--status', 'READY'])).code).toBe(2);
    expect(await requestCount()).toBe(before);
    const fine = await paylink(['payment', 'list', '--status', 'declined-retry', '--json']);
    expect(fine.code, fine.stderr).toBe(0);
    expect((await paylink(['link', 'list', '--status', 'paid', '--json'])).code).toBe(0);
  });

  it('refuses `clock set 2030-02-31` as `clock advance banana` is refused, leaving the clock alone', async () => {
    const before = await requestCount();
    const run = await paylink(['clock', 'set', '2030-02-31T00:00:00Z']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('2030-02-31 is not a day of the calendar');
    expect((await paylink(['clock', 'advance', 'banana'])).code).toBe(2);
    expect(await requestCount()).toBe(before);
    expect((await paylink(['clock', 'set', '2030-02-28T00:00:00Z', '--json'])).code).toBe(0);
    await paylink(['clock', 'reset']);
  });

  it('refuses `webhooks add notaurl` as a bad --return-url is refused', async () => {
    const before = await requestCount();
    const run = await paylink(['webhooks', 'add', 'notaurl']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('webhooks add <url>: expected an absolute http(s) URL');
    const returnUrl = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'notaurl']);
    expect(returnUrl.code).toBe(2);
    expect(await requestCount()).toBe(before);
  });

  it('names every missing flag at once', async () => {
    const run = await paylink(['link', 'create']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('missing --amount, --currency and --return-url (no terminal to ask on: pass --amount, --currency and --return-url).');
    const payment = await paylink(['payment', 'create']);
    expect(payment.code).toBe(2);
    expect(payment.stderr).toContain('missing --amount and --currency');
  });

  it.runIf(hasScript)('says on a real terminal with CI=true that CI mode turns questions off', async () => {
    const run = await runInTty(['link', 'create', '--base-url', sb.url], [], { cwd, env: { CI: 'true', NO_COLOR: '1' } });
    expect(run.code, run.screen).toBe(2);
    expect(run.screen).toContain('CI=true is set, which turns questions off');
    expect(run.screen).not.toContain('no terminal to ask on');
  });
});
