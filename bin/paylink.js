#!/usr/bin/env node
// The built CLI is the bundle in dist/bundle/ (npm install runs the build through `prepare`; one file per
// command instead of the ~200 modules of dist/cli/, for start-up). Exit codes are set by its `main`
// (src/cli/index.ts); only a missing build is reported here (70, the CLI's "internal error").
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bundle/paylink.js', import.meta.url);
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs no program: read it from package.json without loading the CLI's modules.
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (existsSync(fileURLToPath(entry))) {
  const { main } = await import(entry.href);
  await main(process.argv);
} else {
  process.stderr.write('paylink: the CLI is not built yet. Run `npm run build` (or `npm install`) in the paylink folder.\n');
  process.exitCode = 70;
}
