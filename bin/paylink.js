#!/usr/bin/env node
// The built CLI lives in dist/ (npm install runs the build through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/index.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('paylink: the CLI is not built yet. Run `npm run build` (or `npm install`) in the paylink folder.\n');
  process.exit(70);
}
const { main } = await import(entry.href);
await main(process.argv);
