import { existsSync } from 'node:fs';

/** The tests import the built sandbox (dist/) for CLI processes; make sure it exists. */
export default function setup(): void {
  if (!existsSync(new URL('../../dist/sandbox/index.js', import.meta.url))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it for you).');
  }
}
