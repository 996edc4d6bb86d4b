/**
 * The package's public types depend on nothing but Node's (issue 23.15): a TypeScript project importing
 * paylink's entry points compiles with `skipLibCheck: false` and only `@types/node` installed. Each entry
 * point of package.json's `exports` is compiled from a consumer file in a temporary project whose
 * node_modules holds just `paylink` (a symlink to this package, resolved through its `exports`, built
 * dist/ types) and `@types/node`. To cover a new entry point, add it to ENTRY_POINTS.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Each public entry point and a consumer file that uses it as a merchant's project would. */
const ENTRY_POINTS: Record<string, string> = {
  paylink: `
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from 'paylink';
import * as everything from 'paylink';

const options: StartSandboxOptions = { port: 0, db: ':memory:' };
const sandbox: RunningSandbox = await startSandbox(options);
const url: string = sandbox.url;
console.log(url, Object.keys(everything));
await sandbox.close();
`,
  'paylink/library': `
import * as library from 'paylink/library';
console.log(Object.keys(library));
`,
  'paylink/testing': `
import { createTestSandbox, payOnHostedPage, webhookReceiver, type PageLike, type TestSandbox } from 'paylink/testing';
import * as everything from 'paylink/testing';

const sandbox: TestSandbox = await createTestSandbox({ db: ':memory:', businessId: 'shop' });
const received = await webhookReceiver({ secret: sandbox.webhookSecret });
const link = await sandbox.api.links.create({ transaction: { amount: 1, currencyCode: 'EUR' }, link: { returnUrl: 'https://shop.example/', brandIds: [1010] } });
const url: string = link.body.link.redirect.url;
declare const page: PageLike;
const pay: typeof payOnHostedPage = payOnHostedPage;
console.log(url, page, pay, Object.keys(everything));
await received.close();
await sandbox.close();
`,
};

const dir = mkdtempSync(join(tmpdir(), 'paylink-consumer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tsc(project: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', project], { timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr });
    });
  });
}

/** A consumer project: node_modules with `paylink` and `@types/node` (and its undici-types) only, strict, skipLibCheck off. */
function consumerProject(sources: Record<string, string>): string {
  const project = join(dir, 'consumer');
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'paylink'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');
  // @types/node's own dependency, installed beside it as npm would.
  symlinkSync(join(ROOT, 'node_modules', 'undici-types'), join(project, 'node_modules', 'undici-types'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        // The symlinked package stays where the consumer sees it, so its imports resolve from the
        // consumer's node_modules (which has no h3, no better-sqlite3 types): as after `npm install paylink`.
        preserveSymlinks: true,
        types: ['node'],
      },
      files: Object.keys(sources),
    }),
  );
  for (const [file, source] of Object.entries(sources)) writeFileSync(join(project, file), source);
  return project;
}

describe('public types', () => {
  it('the entry points tested are the ones package.json exports', () => {
    const exported = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'paylink' : `paylink/${key.slice(2)}`));
    expect(Object.keys(ENTRY_POINTS).sort()).toEqual(exported.sort());
  });

  it('every entry point compiles in a consumer project with skipLibCheck off and only @types/node', async () => {
    // One consumer file per entry point (consumer-paylink-library.ts), compiled in one run: errors name the file.
    const sources = Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, source]) => [`consumer-${name.replace(/[^a-z0-9]+/gi, '-')}.ts`, source]));
    const result = await tsc(consumerProject(sources));
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 180_000);
});
