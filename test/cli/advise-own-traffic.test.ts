/**
 * The advisor judges only the merchant's code (issue 23.3, docs/advisor.md "Whose traffic is judged"):
 * paylink's own tools mark their requests, a fixture run is left out whole, what the CLI does in the
 * merchant's place is neither blamed nor credited, and what `pay` does as the customer counts as the
 * customer's. Spawns the real CLI against a real sandbox of its own (a fresh one: the report covers it all).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { useReturnPage } from '../helpers/return-page.js';
import { pathOf } from '../../src/sandbox/domain/routes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sb = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'paylink-own-traffic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The merchant's return page: answers 200 and never reads the status. */
const returnPage = useReturnPage('<p>Thanks for your order</p>');

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd: dir });
}

async function advice(business: string): Promise<Array<{ check: string; message: string }>> {
  const res = await sb.get(`/__sandbox/advice?businessId=${encodeURIComponent(business)}`);
  expect(res.status).toBe(200);
  return res.body.body.findings;
}

async function createLink(business: string): Promise<string> {
  const run = await paylink(['link', 'create', '--business-id', business, '--amount', '12.50', '--currency', 'EUR', '--return-url', returnPage.url, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout).body.link.linkId as string;
}

describe('the advisor and paylink’s own traffic', () => {
  it('reports nothing after the shipped fixtures are loaded, and --fail-on warning exits 0', async () => {
    const files = readdirSync(join(ROOT, 'fixtures'))
      .filter((f) => f.endsWith('.json') && f !== 'schema.json')
      .map((f) => join(ROOT, 'fixtures', f));
    const load = await paylink(['fixtures', 'load', ...files]);
    expect(load.code, load.stderr).toBe(0);
    // The fixture run is in the log, marked: the advisor saw it and left it out.
    const logged = await sb.get('/__sandbox/requests?limit=1000');
    const rows = logged.body.body.requests as Array<{ client?: string; path: string }>;
    expect(rows.filter((r) => r.path.startsWith('/gateway/v3/')).length).toBeGreaterThan(5);
    expect(rows.filter((r) => r.path.startsWith('/gateway/v3/')).every((r) => r.client === 'fixtures')).toBe(true);
    const run = await paylink(['advise', '--fail-on', 'warning', '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).findings).toEqual([]);
  });

  it('does not count the status reads of three `pay --outcome declined` on one link as polling', async () => {
    const business = `own-pay-${process.pid}`;
    const link = await createLink(business);
    for (let i = 0; i < 3; i++) {
      const pay = await paylink(['pay', link, '--business-id', business, '--outcome', 'declined']);
      expect([0, 3], pay.stderr).toContain(pay.code);
    }
    const reads = (await sb.get(`/__sandbox/requests?path=${link}&method=GET&limit=1000`)).body.body.requests as Array<{ kind: string; client?: string }>;
    expect(reads.filter((r) => r.kind === 'api' && r.client === 'cli').length).toBeGreaterThan(5);
    expect((await advice(business)).map((f) => f.check)).not.toContain('polls-too-fast');
  });

  it('finds trusts-the-redirect when `pay` returns to a merchant that never reads the status, on a link the merchant’s code created', async () => {
    const business = `own-redirect-${process.pid}`;
    // The merchant's server creates the link (plain HTTP, no request mark); `pay` plays the customer.
    const created = await sb.post(pathOf('links.create'), linkRequest({ businessId: business, link: { returnUrl: returnPage.url } }));
    expect(created.status).toBe(200);
    const link = created.body.body.link.linkId as string;
    const pay = await paylink(['pay', link, '--business-id', business, '--outcome', 'approved']);
    expect(pay.code, pay.stderr).toBe(0);
    expect((await paylink(['clock', 'advance', '2m'])).code).toBe(0);
    const findings = await advice(business);
    expect(findings.map((f) => f.check)).toEqual(['trusts-the-redirect']);
  });
});
