/**
 * Builds the commander program. The only place that exits the process: one catch maps typed errors to
 * exit codes (docs/cli.md).
 */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { ApiError, EXIT_CODES } from '../sandbox/errors.js';
import { registerSandbox } from './commands/sandbox.js';
import { UnreachableError, UsageError } from './errors.js';
import { Ui } from './ui.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export function buildProgram(ui: () => Ui): Command {
  const program = new Command();
  program
    .name('paylink')
    .description('Local sandbox and command-line tool for the payment-link and checkout API v3')
    .version(pkg.version)
    .exitOverride()
    .showHelpAfterError();
  registerSandbox(program, ui);
  return program;
}

/** Runs the CLI with `argv` (as `process.argv`) and exits with the documented code. */
export async function main(argv: string[]): Promise<void> {
  let ui = new Ui({ stdout: process.stdout, stderr: process.stderr });
  const program = buildProgram(() => ui);
  program.hook('preAction', (_this, action) => {
    const opts = action.optsWithGlobals() as { json?: boolean; quiet?: boolean; color?: boolean };
    ui = new Ui({ stdout: process.stdout, stderr: process.stderr }, { json: opts.json, quiet: opts.quiet, color: opts.color });
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeOf(error, ui);
  }
}

function exitCodeOf(error: unknown, ui: Ui): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return EXIT_CODES.ok;
    return EXIT_CODES.usage;
  }
  if (error instanceof UsageError || error instanceof UnreachableError) {
    ui.error(error.message);
    return error.exitCode;
  }
  if (error instanceof ApiError) {
    ui.error(`${error.description} (${error.result}, code ${error.code}): ${error.message}`);
    return error.exitCode;
  }
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    ui.error(`${(error as Error).message}. Another process uses that port: stop it or pick another with --port.`);
    return EXIT_CODES.usage;
  }
  ui.error(`unexpected failure: ${(error as Error)?.stack ?? String(error)}`);
  return EXIT_CODES.internal;
}
