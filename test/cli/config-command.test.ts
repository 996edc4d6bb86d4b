/**
 * `paylink config` (issue 23, extras): each setting and where it came from; a config file with an unknown
 * key (a typo such as `bizId`) is refused by every command, naming the key it meant.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folderWith(config: unknown, file = 'paylink.config.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-config-'));
  dirs.push(dir);
  writeFileSync(join(dir, file), JSON.stringify(config));
  return dir;
}

function paylink(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { cwd, env });
}

describe('paylink config', () => {
  it('refuses a config file with a typo, naming the key it meant, in every command', async () => {
    const dir = folderWith({ baseUrl: sb.url, bizId: 'shop-1' });
    for (const args of [['link', 'list'], ['config']]) {
      const run = await paylink(args, dir);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(
        'paylink.config.json: unknown key "bizId" (did you mean "businessId"?). Known keys: baseUrl, businessId, username, password, webhookSecret.',
      );
    }
    const pkg = folderWith({ name: 'shop', paylink: { baseURL: sb.url } }, 'package.json');
    const run = await paylink(['config'], pkg);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('package.json "paylink": unknown key "baseURL" (did you mean "baseUrl"?)');
  });

  it('shows each setting and where it came from: flag, environment, config file, default', async () => {
    const dir = folderWith({ baseUrl: sb.url, businessId: 'shop-1', password: 'from-file-1234' });
    const run = await paylink(['config', '--json', '--timeout', '5'], dir, { PAYLINK_USERNAME: 'merchant' });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.file).toBe('paylink.config.json');
    expect(report.settings).toMatchObject({
      baseUrl: { value: sb.url, source: 'paylink.config.json' },
      businessId: { value: 'shop-1', source: 'paylink.config.json' },
      username: { value: 'merchant', source: 'PAYLINK_USERNAME' },
      password: { value: '…1234', source: 'paylink.config.json' },
      timeout: { value: 5, source: '--timeout' },
      ca: { value: null, source: 'default' },
    });
    expect(run.stdout).not.toContain('from-file');
    const human = await paylink(['config', '--business-id', 'shop-2', '--username', 'merchant'], dir);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/businessId\s+shop-2\s+--business-id/);
    expect(human.stdout).toMatch(/baseUrl\s+http:\/\/127\.0\.0\.1:\d+\s+paylink\.config\.json/);
  });
});
