/**
 * docs/commands.md is generated from the commander tree the CLI runs (src/cli/reference.ts): a command or
 * option added, changed or removed without regenerating it (`npm run docs:cli`) fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/index.js';
import { commandPaths, commandReference } from '../../src/cli/reference.js';

const program = () =>
  buildProgram(() => {
    throw new Error('the reference test never runs a command');
  });

describe('docs/commands.md, the command reference', () => {
  it('is what the program prints (run `npm run docs:cli` after changing a command)', () => {
    const onDisk = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(commandReference(program()));
  });

  it('has a section for every command and every option of each', () => {
    const reference = commandReference(program());
    for (const { path, command } of commandPaths(program())) {
      const start = reference.indexOf(`\n## paylink ${path.join(' ')}\n`);
      expect(start, path.join(' ')).toBeGreaterThan(0);
      const section = reference.slice(start, reference.indexOf('\n## ', start + 1) >>> 0);
      for (const option of command.options) expect(section, `${path.join(' ')} ${option.flags}`).toContain(option.long ?? option.short);
    }
  });
});
