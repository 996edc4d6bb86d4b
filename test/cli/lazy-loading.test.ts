/**
 * The CLI loads a command's module only when that command runs (its spec's `run`, src/cli/registry.ts): spawned
 * `node bin/paylink.js` with a preload that records every module the process loads (load-recorder/).
 * bin/paylink.js runs the bundled CLI (dist/bundle/, scripts/build.mjs): a chunk it loads counts as every
 * module the chunk holds (dist/bundle/modules.json), so what is asserted is still modules, bundled or not.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DB, DEFAULT_PORT } from '../../src/sandbox/index.js';
import { SANDBOX_DEFAULTS } from '../../src/cli/config.js';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/paylink.js');
const RECORDER = fileURLToPath(new URL('./load-recorder/record.mjs', import.meta.url));
/** The modules each chunk of the bundled CLI holds, by chunk file name, as paths from the repository root. */
const CHUNKS = JSON.parse(readFileSync(join(ROOT, 'dist/bundle/modules.json'), 'utf8')) as Record<string, string[]>;
/** What only the sandbox, a spinner or a prompt needs. */
const HEAVY = ['listhen', 'node-forge', 'consola', 'h3', 'better-sqlite3', '@inquirer/prompts', 'ora'];
/** The sandbox's pure parts the CLI may use (test cards, brands): domain/ and the error catalogue it reads. */
const pureSandbox = (file: string) => file.startsWith('dist/sandbox/domain/') || file === 'dist/sandbox/errors.js';
/** A command's module, not its declaration (`<verb>.spec.js`, which every start loads to build the program). */
const commandModule = (file: string) => file.startsWith('dist/cli/commands/') && !file.endsWith('.spec.js');

const sb = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'paylink-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/** Runs node with the recorder; resolves with the exit code, stdout and the files loaded (relative to the repo). */
function recorded(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; loaded: string[] }> {
  const record = join(dir, `run-${++runs}.txt`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', RECORDER, ...args],
      { cwd: dir, env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', PAYLINK_LOAD_RECORD: record, ...env }, timeout: 20_000 },
      (error, stdout) => {
        const lines = readFileSync(record, 'utf8').split('\n').filter(Boolean);
        const loaded = [...new Set(lines.flatMap((file) => modulesOf(file.startsWith('/') ? relative(ROOT, file) : file)))];
        resolve({ code: error ? Number(error.code) : 0, stdout, loaded });
      },
    );
  });
}

/** A loaded file as the modules it holds: a chunk of the bundled CLI holds several. */
function modulesOf(file: string): string[] {
  if (!file.startsWith('dist/bundle/')) return [file];
  const modules = CHUNKS[file.slice('dist/bundle/'.length)];
  if (modules === undefined) throw new Error(`${file} is not in dist/bundle/modules.json: run \`npm run build\``);
  return modules;
}

/** The packages of HEAVY among the loaded files (node_modules may be a link to another checkout's). */
function heavyIn(loaded: string[]): string[] {
  return HEAVY.filter((name) => loaded.some((file) => file.startsWith(`node_modules/${name}/`) || file.includes(`/node_modules/${name}/`)));
}

describe('what the CLI loads', () => {
  it('sees the heavy packages when the sandbox command module is imported (the recorder works)', async () => {
    const { loaded } = await recorded(['--input-type=module', '-e', `await import(${JSON.stringify(join(ROOT, 'dist/cli/commands/sandbox.js'))})`]);
    expect(heavyIn(loaded)).toEqual(expect.arrayContaining(['h3', 'better-sqlite3']));
  });

  /** A script that starts a sandbox with `options`, reads its health over HTTP, stops it and prints the status. */
  const startAndAnswer = (options: string): string[] => [
    '--input-type=module',
    '-e',
    `import { get } from 'node:http';
     const { startSandbox } = await import(${JSON.stringify(join(ROOT, 'dist/sandbox/index.js'))});
     const sandbox = await startSandbox({ port: 0, db: ':memory:', ...${options} });
     const url = new URL(sandbox.url);
     const status = await new Promise((resolve, reject) => get({ host: url.hostname, port: url.port, path: '/__sandbox/health' }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); }).on('error', reject));
     await sandbox.close();
     console.log(status);`,
  ];

  it('serves plain HTTP without listhen, its certificate tools (node-forge) or its logger (consola)', async () => {
    const { code, stdout, loaded } = await recorded(startAndAnswer('{}'));
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('200');
    expect(heavyIn(loaded)).toEqual(expect.arrayContaining(['h3', 'better-sqlite3']));
    expect(heavyIn(loaded).filter((name) => ['listhen', 'node-forge', 'consola'].includes(name))).toEqual([]);
  });

  it("opens its database with better-sqlite3's addon named by its file, without the bindings package's search", async () => {
    const { code, stdout, loaded } = await recorded(startAndAnswer("{ db: process.argv.at(-1) + '/addon.db' }").concat(dir));
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('200');
    expect(loaded.some((file) => file.endsWith('better_sqlite3.node'))).toBe(true);
    expect(loaded.filter((file) => /(^|\/)node_modules\/(bindings|file-uri-to-path)\//.test(file))).toEqual([]);
  });

  it('answers --version and --help without loading any command module, the sandbox or a heavy package', async () => {
    for (const flag of ['--version', '--help']) {
      const { code, stdout, loaded } = await recorded([BIN, flag]);
      expect(code, flag).toBe(0);
      expect(stdout, flag).toMatch(flag === '--version' ? /^\d+\.\d+\.\d+\n$/ : /Usage: paylink/);
      expect(heavyIn(loaded), flag).toEqual([]);
      expect(
        loaded.filter((file) => commandModule(file) || (file.startsWith('dist/sandbox/') && !pureSandbox(file))),
        flag,
      ).toEqual([]);
      expect(loaded, flag).not.toContain('dist/cli/ui.js');
    }
  });

  it('runs `paylink pay` loading its own module and none of the sandbox', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'lazy-biz', link: { returnUrl: 'http://127.0.0.1:9/return' } }));
    const id = created.body.body.link.linkId as string;
    const { code, loaded } = await recorded([BIN, 'pay', id, '--outcome', 'approved', '--base-url', sb.url, '--business-id', 'lazy-biz', '--json']);
    expect(code).toBe(0);
    expect(loaded).toContain('dist/cli/commands/pay.js');
    expect(loaded.filter((file) => commandModule(file) && file !== 'dist/cli/commands/pay.js')).toEqual([]);
    expect(heavyIn(loaded)).toEqual([]);
    expect(loaded.filter((file) => file.startsWith('dist/sandbox/') && !pureSandbox(file))).toEqual([]);
  });

  it('runs `paylink sandbox` to its first answer without the API client, the connection, the journal or `paylink logs`', async () => {
    const record = join(dir, `run-${++runs}.txt`);
    const child = spawn(process.execPath, ['--import', RECORDER, BIN, 'sandbox', '--port', '0', '--db', join(dir, 'started.db')], {
      cwd: dir,
      env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', PAYLINK_LOAD_RECORD: record },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let out = '';
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /PAYLINK_BASE_URL=(\S+)/.exec(out);
        if (found) resolve(found[1]!);
      });
      void exited.then((code) => reject(new Error(`paylink sandbox ended (${code}) before its banner: ${out}`)));
    });
    expect((await fetch(`${base}/`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const loaded = [
      ...new Set(
        readFileSync(record, 'utf8')
          .split('\n')
          .filter(Boolean)
          .flatMap((file) => modulesOf(file.startsWith('/') ? relative(ROOT, file) : file)),
      ),
    ];
    expect(loaded).toContain('dist/cli/commands/sandbox.js');
    expect(
      loaded.filter((file) =>
        ['dist/cli/context.js', 'dist/cli/client.js', 'dist/client/api.js', 'dist/cli/journal.js', 'dist/cli/commands/logs.js'].includes(file),
      ),
    ).toEqual([]);
    expect(loaded.filter((file) => commandModule(file) && !file.startsWith('dist/cli/commands/sandbox'))).toEqual([]);
  });

  it("shows the sandbox's own defaults in `paylink sandbox --help`", async () => {
    expect(SANDBOX_DEFAULTS).toEqual({ port: DEFAULT_PORT, db: DEFAULT_DB });
    const { stdout, loaded } = await recorded([BIN, 'sandbox', '--help']);
    // No commander default for --port: without it, PAYLINK_PORT decides; the help says both.
    expect(stdout).toContain(`(env PAYLINK_PORT; default ${DEFAULT_PORT})`);
    expect(stdout).toContain(`(default: "${DEFAULT_DB}")`);
    expect(heavyIn(loaded)).toEqual([]);
  });
});
