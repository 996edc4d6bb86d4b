#!/usr/bin/env node
// The built CLI lives in dist/ (npm install runs the build through `prepare`). Exit codes are set by
// dist/cli/index.js; only a missing build is reported here (70, the CLI's "internal error").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/index.js', import.meta.url);
if (existsSync(fileURLToPath(entry))) {
  const { main } = await import(entry.href);
  await main(process.argv);
} else {
  process.stderr.write('paylink: the CLI is not built yet. Run `npm run build` (or `npm install`) in the paylink folder.\n');
  process.exitCode = 70;
}
