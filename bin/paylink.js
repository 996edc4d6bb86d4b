#!/usr/bin/env node
// The built CLI is the bundle in dist/bundle/ (npm install runs the build through `prepare`): one CommonJS
// file per command instead of the ~200 ES modules of dist/cli/, for start-up (docs/architecture.md, "The
// build"). Exit codes are set by its `main` (src/cli/index.ts); only a missing build is reported here (70,
// the CLI's "internal error").
//
// Node's modules are taken with process.getBuiltinModule rather than imported: an import builds a facade
// of every export, and node:fs's reads its lazy streams (about 2 ms of each start).
const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const entry = fileURLToPath(new URL('../dist/bundle/paylink.cjs', import.meta.url));
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs no program: read it from package.json without loading the CLI's modules.
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (existsSync(entry)) {
  // Required, not imported: an import of CommonJS would first scan the file for its export names.
  const { main } = createRequire(import.meta.url)(entry);
  await main(process.argv);
} else {
  process.stderr.write('paylink: the CLI is not built yet. Run `npm run build` (or `npm install`) in the paylink folder.\n');
  process.exitCode = 70;
}
