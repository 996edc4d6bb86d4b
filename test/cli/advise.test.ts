/**
 * `paylink advise` and the findings in `paylink logs`, spawned as `node bin/paylink.js` against a real
 * sandbox on port 0: the --json shape, --fail-on's exit code, the --junit file, and the log's marks.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { card } from '../conformance/client.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const sb = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'paylink-advise-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd: dir, timeoutMs: 20_000 });
}

/** A business whose tracking codes collide (a warning) and whose amount has too many decimals (an error). */
async function careless(businessId: string): Promise<void> {
  const code = uniqueCode('order');
  const create = () =>
    sb.post('/gateway/v3/paymentlinks', {
      header: { businessId },
      body: { transaction: { amount: 5, currencyCode: 'EUR', trackingCode: code }, link: { brandIds: [1010], returnUrl: 'https://shop.example/r' } },
    });
  expect((await create()).status).toBe(200);
  expect((await create()).body.body.error.code).toBe(2001);
  const refused = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: { transaction: { amount: 7.125, currencyCode: 'EUR', trackingCode: uniqueCode('order') }, card: card('4111111111111111') },
  });
  expect(refused.body.body.error.code).toBe(1002);
}

/** A business that does everything right: one link, read back. */
async function careful(businessId: string): Promise<void> {
  const res = await sb.post('/gateway/v3/paymentlinks', {
    header: { businessId },
    body: {
      transaction: { amount: 5, currencyCode: 'EUR', trackingCode: uniqueCode('order') },
      link: { brandIds: [1010], returnUrl: 'https://shop.example/r' },
    },
  });
  expect((await sb.get(`/gateway/v3/paymentlinks/${res.body.body.link.linkId}?businessId=${businessId}`)).status).toBe(200);
}

describe('paylink advise', () => {
  it('prints the report as one JSON document with every check and the findings of one business', async () => {
    await careless('cli-careless-1');
    const run = await paylink(['advise', '--business', 'cli-careless-1', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json;
    expect(report.businessId).toBe('cli-careless-1');
    expect(report.summary).toMatchObject({ errors: 1, warnings: 1 });
    expect(report.checks).toHaveLength(10);
    expect(report.checks.find((c: any) => c.id === 'money')).toMatchObject({ status: 'failed', findings: 1, severity: 'error', doc: 'docs/advisor.md#money' });
    expect(report.checks.find((c: any) => c.id === 'webhook-signature')).toMatchObject({ status: 'needs-data' });
    expect(report.findings.map((f: any) => f.check).sort()).toEqual(['money', 'reuses-tracking-code']);
    for (const f of report.findings) {
      expect(f).toMatchObject({ businessId: 'cli-careless-1', doc: `docs/advisor.md#${f.check}` });
      expect(f.evidence[0].seq).toBeTypeOf('number');
    }
  });

  it('exits 3 with --fail-on error when an error finding exists, and 0 for a business without one', async () => {
    await careless('cli-careless-2');
    await careful('cli-careful-2');
    const failing = await paylink(['advise', '--business', 'cli-careless-2', '--fail-on', 'error', '--json']);
    expect(failing.code).toBe(3);
    expect(failing.stderr).toContain('1 finding at or above error (--fail-on error)');
    expect(failing.json.findings).toHaveLength(2);

    const warningsToo = await paylink(['advise', '--business', 'cli-careless-2', '--fail-on', 'warning']);
    expect(warningsToo.code).toBe(3);
    expect(warningsToo.stdout).toContain('reuses-tracking-code');
    expect(warningsToo.stdout).toContain('how to fix: docs/advisor.md#money');
    expect(warningsToo.stderr).toContain('2 findings at or above warning');

    const clean = await paylink(['advise', '--business', 'cli-careful-2', '--fail-on', 'warning']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain('No findings for cli-careful-2.');
  });

  it('writes a JUnit report with one test case per check', async () => {
    await careless('cli-careless-3');
    const file = join(dir, 'advisor.xml');
    const run = await paylink(['advise', '--business', 'cli-careless-3', '--fail-on', 'error', '--junit', file]);
    expect(run.code).toBe(3);
    const xml = readFileSync(file, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="paylink advise" tests="10" failures="1" skipped="2">/);
    expect(xml.match(/<testcase /g)).toHaveLength(10);
    expect(xml).toMatch(
      /<testcase classname="paylink.advise" name="money: [^"]*"><failure type="error" message="1 finding: An amount of 7.125 EUR was refused/,
    );
    // Below --fail-on: passing, its finding in the output.
    expect(xml).toMatch(/<testcase classname="paylink.advise" name="reuses-tracking-code: [^"]*"><system-out>\[warning\] cli-careless-3: /);
    expect(xml).toMatch(/<testcase classname="paylink.advise" name="stale-status: [^"]*"><skipped message="needs webhook deliveries/);
  });

  it('refuses a --fail-on or --since it does not know with a usage error', async () => {
    expect((await paylink(['advise', '--fail-on', 'info'])).code).toBe(2);
    const since = await paylink(['advise', '--since', 'yesterday']);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since: expected a duration such as 10m');
  });

  it('keeps to the window given by --since', async () => {
    const run = await paylink(['advise', '--since', '10m', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.since).toBe('10m');
    expect(run.json.from).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('paylink logs', () => {
  it('marks the requests that produced a finding', async () => {
    await careless('cli-careless-4');
    const human = await paylink(['logs', '--business', 'cli-careless-4']);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trim().split('\n');
    expect(lines.filter((l) => l.includes('! reuses-tracking-code'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('! money'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('!'))).toHaveLength(2);

    const json = await paylink(['logs', '--business', 'cli-careless-4', '--json']);
    const marked = json.json.filter((e: any) => e.findings);
    expect(marked.map((e: any) => e.findings)).toEqual([['reuses-tracking-code'], ['money']]);
  });
});
