/**
 * A real `paylink sandbox --proxy 0` process in a temporary folder (its local authority under that
 * folder's own config home), found as the CLI finds it: through its discovery entry.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, until } from './cli.js';

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;

export interface ProxySandbox {
  dir: string;
  /** The config home its authority lives in. */
  config: string;
  entry: { url: string; listen: string; proxy: string; authority: string };
  child: ChildProcess;
  /** What the sandbox process printed so far (stdout and stderr). */
  output(): string;
  /** `paylink env --json` run in its folder. */
  env(): Promise<{ variables: Record<string, string>; chromium: { args: string[]; spkiPin: string }; bundle: string; authority: string }>;
  stop(): Promise<void>;
}

export async function startProxySandbox(args: string[] = []): Promise<ProxySandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-drop-in-'));
  const config = join(dir, 'config');
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--proxy', '0', '--db', join(dir, 'sandbox.db'), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', XDG_CONFIG_HOME: config },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const entries = join(dir, '.paylink', 'sandboxes');
  const entryFile = (): string | undefined => {
    try {
      return readdirSync(entries).find((f) => f.endsWith('.json'));
    } catch {
      return undefined;
    }
  };
  try {
    await until(() => entryFile() !== undefined || child.exitCode !== null, 20_000);
  } catch {
    // reported below
  }
  if (entryFile() === undefined) {
    child.kill('SIGKILL');
    throw new Error(`paylink sandbox --proxy did not start: ${output}`);
  }
  const entry = JSON.parse(readFileSync(join(entries, entryFile()!), 'utf8'));
  return {
    dir,
    config,
    entry,
    child,
    output: () => output,
    async env() {
      const run = await runCli(['env', '--json'], { cwd: dir });
      if (run.code !== 0) throw new Error(`paylink env failed: ${run.stderr}`);
      return run.json;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether Debian's php-cli with php-curl is here; under CI=true its absence fails the suite instead. */
export function phpAvailable(): boolean {
  const ok = spawnSync('php', ['-r', 'exit(function_exists("curl_init") ? 0 : 1);']).status === 0;
  if (!ok && (process.env.CI === 'true' || process.env.CI === '1'))
    throw new Error('php-cli with php-curl is required under CI (.ci/run installs php-cli php-curl)');
  if (!ok) console.warn('SKIPPED: php-cli with php-curl is not installed here; the PHP drop-in tests did not run');
  return ok;
}
