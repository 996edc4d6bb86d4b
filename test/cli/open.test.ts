/**
 * `paylink open dashboard --json` reports what happened (issue 23, item 12): `opened: false` with the
 * reason when the launcher or the browser it ran failed (xdg-open exiting 4 because Chromium refuses to
 * run as root, or finding no browser), and the URL either way. The real system xdg-open where installed.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/tty.js';

const sb = useSandbox();
const home = mkdtempSync(join(tmpdir(), 'paylink-open-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function paylink(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args, '--base-url', sb.url],
      { cwd: home, env: { HOME: home, NO_COLOR: '1', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** PATH with a folder first whose `xdg-open` runs `body`: a stand-in for a desktop's launcher. */
function launcher(name: string, body: string): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, 'xdg-open'), 0o755);
  return `${dir}:${process.env.PATH}`;
}

describe('open dashboard --json', () => {
  it.runIf(existsSync('/usr/bin/xdg-open'))(
    'says opened: false with the reason when the system xdg-open could not start a browser, and prints the URL',
    async () => {
      // A display that does not exist: whatever browser xdg-open finds (Chromium refusing root, none at all) fails.
      const run = await paylink(['open', 'dashboard', '--json'], { PATH: process.env.PATH!, DISPLAY: ':99', XDG_DATA_HOME: home, XDG_CONFIG_HOME: home });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ kind: 'dashboard', url: `${sb.url}/`, opened: false });
      expect(result.reason).toMatch(/^xdg-open exited with code [1-9]\d*/);
      const human = await paylink(['open', 'dashboard'], { PATH: process.env.PATH!, DISPLAY: ':99', XDG_DATA_HOME: home, XDG_CONFIG_HOME: home });
      expect(human.stdout.trim()).toBe(`${sb.url}/`);
      expect(human.stderr).toMatch(/No browser could be opened \(xdg-open exited with code/);
    },
  );

  it('names what the browser said when the launcher fails, as Chromium run as root does', async () => {
    const PATH = launcher(
      'refusing',
      `echo '[1:1:1124/000000.000000:ERROR:zygote_host_impl_linux.cc:103] Running as root without --no-sandbox is not supported.' >&2\nexit 4`,
    );
    const run = await paylink(['open', 'dashboard', '--json'], { PATH, DISPLAY: ':99' });
    expect(JSON.parse(run.stdout)).toEqual({
      kind: 'dashboard',
      url: `${sb.url}/`,
      opened: false,
      reason: 'xdg-open exited with code 4: Running as root without --no-sandbox is not supported',
    });
  });

  it('says opened: true when the launcher started a browser (exit 0, or still running after its window)', async () => {
    for (const [name, body] of [
      ['quick', 'exit 0'],
      ['slow', 'sleep 4'],
    ] as const) {
      const run = await paylink(['open', 'dashboard', '--json'], { PATH: launcher(name, body), DISPLAY: ':99' });
      expect(JSON.parse(run.stdout), name).toEqual({ kind: 'dashboard', url: `${sb.url}/`, opened: true });
    }
  });
});
