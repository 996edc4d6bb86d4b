// Writes docs/commands.md from the built CLI's commander tree (src/cli/reference.ts). Run after a change to
// any command's options or help: test/unit/cli-reference.test.ts fails until it is run.
import { writeFileSync } from 'node:fs';
import { buildProgram } from '../dist/cli/index.js';
import { commandReference } from '../dist/cli/reference.js';

const program = buildProgram(() => {
  throw new Error('the reference never runs a command');
});
writeFileSync(new URL('../docs/commands.md', import.meta.url), commandReference(program));
console.log('docs/commands.md written');
