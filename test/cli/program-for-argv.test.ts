/**
 * `paylink sandbox ...` builds the program with the sandbox command alone (index.ts `commandsFor`): its help
 * and its errors must read as they do from the program with every command.
 */
import type { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, commandsFor } from '../../src/cli/index.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { Ui } from '../../src/cli/ui.js';

const argv = (...words: string[]) => ['node', 'paylink', ...words];

/** What parsing `words` prints (stdout, stderr) and how it ends, with the program built for them or with every command. */
async function run(words: string[], commands: 'for argv' | 'all'): Promise<{ out: string; err: string; code: string | undefined }> {
  const ui = new Ui({ stdout: process.stdout, stderr: process.stderr });
  const program = buildProgram(() => ui, commands === 'all' ? COMMANDS : commandsFor(argv(...words)));
  let out = '';
  let err = '';
  const capture = (command: Command) =>
    command.configureOutput({
      writeOut: (text) => {
        out += text;
      },
      writeErr: (text) => {
        err += text;
      },
    });
  capture(program);
  for (const command of program.commands) capture(command);
  const error = await program.parseAsync(argv(...words)).then(
    () => undefined,
    (e: CommanderError) => e,
  );
  return { out, err, code: error?.code };
}

describe('the program built for the command line', () => {
  it('holds only `sandbox` for `paylink sandbox ...`, and every command for any other first word', () => {
    expect(commandsFor(argv('sandbox', '--port', '0')).map((spec) => spec.name)).toEqual(['sandbox']);
    for (const words of [[], ['--help'], ['help', 'sandbox'], ['completion', 'bash'], ['pay', 'x'], ['link', 'create'], ['sandboxx'], ['--json', 'sandbox']]) {
      expect(commandsFor(argv(...words)), words.join(' ')).toBe(COMMANDS);
    }
  });

  it('gives `paylink sandbox` the same help and the same errors as the program with every command', async () => {
    for (const words of [
      ['sandbox', '--help'],
      ['sandbox', '--prot', '9000'],
      ['sandbox', 'extra'],
      ['sandbox', '--port'],
    ]) {
      const alone = await run(words, 'for argv');
      expect(alone.code, words.join(' ')).toMatch(/^commander\./);
      expect(alone, words.join(' ')).toEqual(await run(words, 'all'));
    }
    expect((await run(['sandbox', '--help'], 'for argv')).out).toMatch(/^Usage: paylink sandbox \[options\]/);
    expect((await run(['sandbox', '--prot', '9000'], 'for argv')).err).toMatch(/unknown option '--prot'[\s\S]*Did you mean --port\?/);
  });
});
