/**
 * Missing or wrong credentials against a sandbox started with `--credentials` (issue 23, item 9): the
 * provider's envelope says only "Security error."; the CLI adds what to pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ credentials: [{ username: 'merchant', password: 'secret', businessIds: ['shop-1'] }] });
const cwd = mkdtempSync(join(tmpdir(), 'paylink-credentials-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function paylink(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd, env });
}

const create = ['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--business-id', 'shop-1'];

describe('credentials the sandbox asks for', () => {
  it('says what to pass when none were given', async () => {
    const run = await paylink(create);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('Security error (-6, code 1401)');
    expect(run.stderr).toContain(
      'The API requires HTTP Basic credentials (a sandbox started with --credentials): pass --username and --password (or set PAYLINK_USERNAME and PAYLINK_PASSWORD).',
    );
  });

  it('says the credentials given were refused when they are wrong', async () => {
    const run = await paylink([...create, '--username', 'merchant'], { PAYLINK_PASSWORD: 'wrong' });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('The API refused the credentials of user "merchant"');
    expect(run.stderr).not.toContain('wrong');
  });

  it('says which business the user does not own', async () => {
    const run = await paylink([...create.slice(0, -2), '--business-id', 'shop-2', '--username', 'merchant', '--password', 'secret']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('User "merchant" does not own business "shop-2"');
  });

  it('works with the credentials from the environment', async () => {
    const run = await paylink([...create, '--json'], { PAYLINK_USERNAME: 'merchant', PAYLINK_PASSWORD: 'secret' });
    expect(run.code, run.stderr).toBe(0);
  });
});
