/**
 * Issue 31.2: the advisor judges what the merchant's code did, not paylink's own flows. On a fresh sandbox,
 * links the CLI created and played with `pay` (with and without `--no-follow`), `trigger link.paid` and
 * the README's shell flow (`link create` -> `pay` -> `status`), then `clock advance 2m`, leave `paylink
 * advise --fail-on error` at exit 0; the same return page on a link the merchant's server created (plain
 * HTTP, no request mark) is still a trusts-the-redirect error. Real CLI processes against a real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { useReturnPage } from '../helpers/return-page.js';
import { pathOf } from '../../src/sandbox/domain/routes.js';

const sb = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'paylink-own-flows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The merchant's return page: answers 200 and never reads the status. */
const returnPage = useReturnPage('<p>Thanks</p>');

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd: dir });
}

async function ok(args: string[]): Promise<CliRun> {
  const run = await paylink(args);
  expect(run.code, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
  return run;
}

async function cliLink(): Promise<string> {
  const run = await ok(['link', 'create', '--amount', '12.50', '--currency', 'EUR', '--return-url', returnPage.url, '--json']);
  return JSON.parse(run.stdout).body.link.linkId as string;
}

describe('the advisor on paylink’s own flows', () => {
  it('passes `advise --fail-on error` after CLI links played with pay, trigger link.paid and the README flow', async () => {
    // pay, with and without --no-follow, on links the CLI created.
    await ok(['pay', await cliLink(), '--outcome', 'approved']);
    await ok(['pay', await cliLink(), '--outcome', 'approved', '--no-follow']);
    await ok(['pay', await cliLink(), '--outcome', 'declined']);
    // trigger's own flow.
    await ok(['trigger', 'link.paid']);
    // The README's shell flow: link create -> pay -> status.
    const link = await cliLink();
    await ok(['pay', link, '--outcome', 'approved']);
    await ok(['status', link]);
    await ok(['clock', 'advance', '2m']);

    const advise = await paylink(['advise', '--fail-on', 'error', '--json']);
    expect(advise.code, advise.stdout + advise.stderr).toBe(0);
    const findings = (JSON.parse(advise.stdout).findings as Array<{ check: string; severity: string }>).filter((f) => f.severity === 'error');
    expect(findings).toEqual([]);
  });

  it('still fails `advise --fail-on error` when a link the merchant’s server created returns to a page that never reads the status', async () => {
    const created = await sb.post(pathOf('links.create'), linkRequest({ businessId: 'merchant-shop', link: { returnUrl: returnPage.url } }));
    expect(created.status).toBe(200);
    await ok(['pay', created.body.body.link.linkId as string, '--business-id', 'merchant-shop', '--outcome', 'approved']);
    await ok(['clock', 'advance', '2m']);

    const advise = await paylink(['advise', '--fail-on', 'error', '--json']);
    expect(advise.code).not.toBe(0);
    const findings = JSON.parse(advise.stdout).findings as Array<{ check: string; businessId: string }>;
    expect(findings.map((f) => `${f.check} ${f.businessId}`)).toEqual(['trusts-the-redirect merchant-shop']);
  });
});
