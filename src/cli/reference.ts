/**
 * The command reference (docs/commands.md), generated from the commander tree the CLI runs: each command's
 * `--help` as a person sees it, so the reference cannot drift from the program. `npm run docs:cli` writes
 * it; test/unit/cli-reference.test.ts fails when the file is not what the program says.
 */
import type { Command } from 'commander';

/** Width the help is wrapped at in the reference, whatever the terminal. */
const WIDTH = 110;

/** Every command of `program`, parents before their subcommands, as the words after `paylink`. */
export function commandPaths(program: Command): Array<{ path: string[]; command: Command }> {
  const walk = (command: Command, path: string[]): Array<{ path: string[]; command: Command }> =>
    (command.commands as Command[]).flatMap((child) => [{ path: [...path, child.name()], command: child }, ...walk(child, [...path, child.name()])]);
  return walk(program, []);
}

/** The help of one command, as `paylink <path> --help` prints it (colour off, fixed width). */
function helpOf(command: Command): string {
  let text = '';
  command.configureHelp({ helpWidth: WIDTH });
  command.configureOutput({
    writeOut: (chunk) => (text += chunk),
    writeErr: (chunk) => (text += chunk),
    getOutHelpWidth: () => WIDTH,
    getErrHelpWidth: () => WIDTH,
  });
  command.outputHelp();
  return text.trimEnd();
}

/** The whole reference as Markdown. */
export function commandReference(program: Command): string {
  const parts = [
    '# paylink command reference',
    '',
    '<!-- Generated from the CLI by `npm run docs:cli` (src/cli/reference.ts): do not edit by hand. -->',
    '',
    "Every command's `--help`, as the program prints it. How the commands behave, their JSON output, exit",
    'codes and configuration: [cli.md](cli.md).',
    '',
    '## paylink',
    '',
    '```',
    helpOf(program),
    '```',
  ];
  for (const { path, command } of commandPaths(program)) {
    parts.push('', `## paylink ${path.join(' ')}`, '', '```', helpOf(command), '```');
  }
  return `${parts.join('\n')}\n`;
}
