// Builds the Node code (tsc), the hosted pages' script and the browser library (their own tsconfigs, ES5).
// Runs on `npm install`.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const run = (project) => execFileSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
run('tsconfig.json');
run('tsconfig.hosted.json');
buildHostedScript();
if (existsSync(new URL('../tsconfig.library.json', import.meta.url))) {
  run('tsconfig.library.json');
  await buildLibraryModule();
}

/**
 * `paylink/library`: the same ES5 core as the served scripts, as an ES module for bundlers. It has no base
 * URL built in (merchants pass `options.baseUrl`); its types are hand-written.
 */
async function buildLibraryModule() {
  const dir = new URL('../dist/library/', import.meta.url);
  const core = readFileSync(new URL('library-core.js', dir), 'utf8');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  // The hosted pages' paths come from the route table, as in the scripts a sandbox serves.
  const { LIBRARY_PAGES } = await import(new URL('../dist/sandbox/web/library-scripts.js', import.meta.url).href);
  const config = JSON.stringify({ baseUrl: null, sandbox: false, version, pages: LIBRARY_PAGES });
  writeFileSync(
    new URL('index.js', dir),
    `${core}\nvar created = PaylinkLibrary.create(${config});\nexport var PaymentLink = created.PaymentLink;\nexport var Checkout = created.Checkout;\n`,
  );
  copyFileSync(new URL('../src/pages/library/npm-types.d.ts', import.meta.url), new URL('index.d.ts', dir));
}

/**
 * The hosted pages' script as served (`/gateway/v3/web/assets/hosted.js`): the compiled client with the
 * module marker its type-only import leaves (`export {};`) taken off, so it is one plain ES5 script.
 */
function buildHostedScript() {
  const compiled = readFileSync(new URL('../dist/hosted/client/hosted-client.js', import.meta.url), 'utf8');
  const script = compiled.replace(/^export \{\};\s*$/m, '');
  if (/^\s*(import|export)\b/m.test(script)) throw new Error('dist/hosted: the hosted script still has an import or export');
  writeFileSync(new URL('../dist/hosted/hosted.js', import.meta.url), script);
}
