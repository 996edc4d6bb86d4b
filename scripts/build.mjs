// Builds the Node code (tsc), the hosted pages' script and the browser library (their own tsconfigs, ES5),
// then bundles the CLI that bin/paylink.js runs (rolldown). Runs on `npm install`.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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
await bundleCli();

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

/**
 * The CLI as bin/paylink.js runs it: tsc's dist/cli/index.js and everything it imports, bundled into
 * dist/bundle/ (docs/architecture.md, "The build"). One file per command and per lazily loaded part instead of
 * about 200 modules, each of which Node would resolve, read and compile on every start; the dynamic imports
 * stay chunks of their own, so a command still loads only what it runs.
 *
 * CommonJS, not ES modules: Node requires a chunk in one synchronous read, where the ES loader reads each
 * file asynchronously, links it, and builds a facade of every export of each Node module it imports (which
 * loads node:fs's streams, say). Measured on `paylink sandbox`, spawn to first answer: 196 -> 179 ms (bare
 * Node 94). The package's exports stay tsc's ES modules.
 *
 * Left outside: Node's modules, better-sqlite3 (a native addon that finds its binary from its own folder),
 * listhen (HTTPS only) and open (its own xdg-open script, found beside it). `propertyReadSideEffects: false`
 * lets h3's unused top-level reads of `globalThis.Headers` and `Response` go, which would load Node's fetch
 * (undici) at every start. dist/bundle/modules.json says which modules each chunk holds
 * (test/cli/lazy-loading.test.ts reads it), and each chunk has its V8 code cache beside it
 * (`<chunk>.v8cache`, bin/code-cache.js).
 */
async function bundleCli() {
  const { build } = await import('rolldown');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = join(root, 'dist/bundle');
  const { output } = await build({
    input: { paylink: join(root, 'dist/cli/index.js') },
    platform: 'node',
    external: [/^node:/, 'better-sqlite3', 'listhen', 'open'],
    treeshake: { unknownGlobalSideEffects: false, propertyReadSideEffects: false },
    logLevel: 'warn',
    // `strict`: the source is ES modules, strict mode; each chunk says so, as a CommonJS file must.
    output: { dir, format: 'cjs', strict: true, comments: false, entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
  });
  const fromRoot = (id) => {
    const at = id.lastIndexOf('/node_modules/');
    if (at >= 0) return id.slice(at + 1);
    // rolldown's own helpers are virtual modules: "\0rolldown/runtime.js".
    return id.startsWith('\0') ? id.slice(1) : relative(root, id);
  };
  const modules = Object.fromEntries(output.filter((o) => o.type === 'chunk').map((chunk) => [chunk.fileName, chunk.moduleIds.map(fromRoot)]));
  writeFileSync(join(dir, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
  // A V8 code cache beside each chunk, which bin/paylink.js compiles it with (bin/code-cache.js); not for a
  // chunk with an import() left in it (`open`, an ES module only): a script compiled by node:vm cannot run
  // one without an experimental option, so Node compiles such a chunk itself. The chunk's text is the fact to
  // read: rolldown's record of the chunk lists the external `open` among its `imports`, with nothing in its
  // `dynamicImports` (checked with rolldown 1.2.19), so the record cannot tell such a chunk from another.
  const { writeCodeCache } = require('../bin/code-cache.js');
  for (const chunk of output) {
    if (chunk.type === 'chunk' && !/\bimport\(/.test(chunk.code)) writeCodeCache(join(dir, chunk.fileName));
  }
}
