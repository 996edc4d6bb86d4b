#!/usr/bin/env node
// The built CLI is the bundle in dist/bundle/ (npm install runs the build through `prepare`): one CommonJS
// file per command instead of the ~200 ES modules of dist/cli/, for start-up (docs/architecture.md, "The
// build"). Exit codes are set by its `main` (src/cli/index.ts); only a missing build is reported here (70,
// the CLI's "internal error").
//
// CommonJS (bin/package.json), like the bundle: an ES module here would make Node start its ES loader for
// this one file, about 7 ms of every start.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '../dist/bundle/');
const entry = join(bundle, 'paylink.cjs');
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs no program: read it from package.json without loading the CLI's modules.
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')).version}\n`);
} else if (existsSync(entry)) {
  // The chunks compiled from the V8 code caches the build wrote beside them (code-cache.js).
  require('./code-cache.js').useCodeCaches(bundle);
  // main settles every error itself (its one catch) and ends the process with the exit code.
  require(entry).main(process.argv);
} else {
  process.stderr.write('paylink: the CLI is not built yet. Run `npm run build` (or `npm install`) in the paylink folder.\n');
  process.exitCode = 70;
}
