/**
 * bin/paylink.js runs the bundled CLI (dist/bundle/, scripts/build.mjs), whose modules sit elsewhere than
 * tsc's: what the sandbox serves from the package's own files (the browser library, the hosted pages'
 * script) and the version it reports are found from the package root (src/package-files.ts), not from
 * the module's folder. A spawned `paylink sandbox` and `paylink version`, checked against the files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathOf } from '../../src/sandbox/domain/routes.js';
import { runCli } from '../helpers/cli.js';
import { startProcess, tempDir, type SandboxProcess } from '../reliability/process.js';

const root = new URL('../../', import.meta.url);
const VERSION = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string }).version;
const dir = tempDir();
const running: SandboxProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((sandbox) => sandbox.stop()));
  dir.remove();
});

describe('the bundled CLI and the package files', () => {
  it("serves the browser library of package.json's version and the hosted pages' script as built", async () => {
    const sandbox = await startProcess(join(dir.dir, 'bundle.db'));
    running.push(sandbox);
    const library = await fetch(`${sandbox.url}${pathOf('library.paymentlink', { version: VERSION })}`);
    expect(library.status).toBe(200);
    expect(await library.text()).toContain(readFileSync(new URL('dist/library/library-core.js', root), 'utf8'));
    const hosted = await fetch(`${sandbox.url}${pathOf('hosted.asset', { name: 'hosted.js' })}`);
    expect(hosted.status).toBe(200);
    expect(await hosted.text()).toBe(readFileSync(new URL('dist/hosted/hosted.js', root), 'utf8'));
  });

  it("reports package.json's version in `paylink version`", async () => {
    const run = await runCli(['version', '--json', '--base-url', 'http://127.0.0.1:9']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ cli: VERSION, library: { paymentlink: VERSION, checkout: VERSION } });
  });
});
