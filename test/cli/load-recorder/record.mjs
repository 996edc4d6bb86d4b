// Preloaded with `node --import` by test/cli/lazy-loading.test.ts: records every module the process loads,
// one per line, in the file named by PAYLINK_LOAD_RECORD. ES modules are seen by a resolve hook (it runs on
// the loader thread, hooks.mjs); CommonJS modules, including those that ES modules and other CommonJS
// modules require, are read from require's cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const out = process.env.PAYLINK_LOAD_RECORD;
if (!out) throw new Error('record.mjs: set PAYLINK_LOAD_RECORD to the file to write');
register('./hooks.mjs', import.meta.url, { data: { out } });
const require = createRequire(import.meta.url);
process.on('exit', () => {
  appendFileSync(
    out,
    Object.keys(require.cache)
      .map((file) => `${file}\n`)
      .join(''),
  );
});
