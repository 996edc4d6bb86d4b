// Builds the Node code (tsc) and the browser library (its own tsconfig, ES5). Runs on `npm install`.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const run = (project) => execFileSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
run('tsconfig.json');
if (existsSync(new URL('../tsconfig.library.json', import.meta.url))) run('tsconfig.library.json');
