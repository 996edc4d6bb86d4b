/**
 * Builds the commander program. The only place that exits the process: one catch maps typed errors to
 * exit codes (docs/cli.md, "Exit codes"). Command modules stay light at import time; ora, prompts and
 * `open` load inside the commands that use them.
 */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { ApiError, EXIT_CODES } from '../sandbox/errors.js';
import { registerCheckout } from './commands/checkout.js';
import { registerCompletion } from './commands/completion.js';
import { registerFollow } from './commands/follow.js';
import { registerLink } from './commands/link.js';
import { registerOpen } from './commands/open.js';
import { registerPay } from './commands/pay.js';
import { registerPayment } from './commands/payment.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerStatus } from './commands/status.js';
import { registerToken } from './commands/token.js';
import { registerClock } from './commands/clock.js';
import { registerLogs } from './commands/logs.js';
import { registerReset } from './commands/reset.js';
import { registerFixtures } from './commands/fixtures.js';
import { DEFAULT_BASE_URL, DEFAULT_BUSINESS_ID, type GlobalFlags } from './config.js';
import { makeContext, type CommandContext } from './context.js';
import { ApiResponseError, UnreachableError, UsageError } from './errors.js';
import { canPrompt, Ui } from './ui.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Repeatable option values (`--brand visa --brand mc`). */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function buildProgram(ui: () => Ui): Command {
  const program = new Command();
  program
    .name('paylink')
    .description('Local sandbox and command-line tool for the payment-link and checkout API v3')
    .version(pkg.version)
    .option('--base-url <url>', `API base URL (env PAYLINK_BASE_URL; default ${DEFAULT_BASE_URL})`)
    .option('--business-id <id>', `merchant business id (env PAYLINK_BUSINESS_ID; default ${DEFAULT_BUSINESS_ID})`)
    .option('--username <name>', 'HTTP Basic user (env PAYLINK_USERNAME)')
    .option('--password <password>', 'HTTP Basic password (env PAYLINK_PASSWORD)')
    .option('--json', 'machine output: exactly one JSON document on stdout')
    .option('--no-color', 'no colours (NO_COLOR works too)')
    .option('-q, --quiet', 'results only: no notes, no spinners')
    .exitOverride()
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Configuration: flags > environment > ./paylink.config.json or package.json "paylink" ({"baseUrl", "businessId", "username", "password"}) > defaults.
Exit codes: 0 done as asked, 2 usage error, 3 API error, 4 sandbox unreachable, 70 internal error.

Examples:
  $ paylink sandbox
  $ paylink link create --amount 12.50 --currency EUR --return-url http://localhost:3000/return
  $ paylink pay <linkId> --outcome approved
  $ paylink status <linkId> --json`,
    );
  const run = async (cmd: Command, action: (ctx: CommandContext) => Promise<unknown>): Promise<void> => {
    await action(makeContext(ui(), cmd.optsWithGlobals<GlobalFlags>()));
  };
  registerSandbox(program, ui);
  registerLink(program, run, collect);
  registerCheckout(program, run, collect);
  registerOpen(program, run);
  registerPay(program, run);
  registerFollow(program, run);
  registerStatus(program, run);
  registerPayment(program, run);
  registerToken(program, run);
  registerCompletion(program, ui);
  registerClock(program, ui);
  registerLogs(program, ui);
  registerReset(program, ui);
  registerFixtures(program, ui);
  return program;
}

/** Runs the CLI with `argv` (as `process.argv`) and sets the documented exit code. */
export async function main(argv: string[]): Promise<void> {
  const streams = { stdout: process.stdout, stderr: process.stderr };
  let ui = new Ui(streams);
  const program = buildProgram(() => ui);
  program.hook('preAction', (_this, action) => {
    const opts = action.optsWithGlobals() as { json?: boolean; quiet?: boolean; color?: boolean };
    ui = new Ui(streams, { json: opts.json, quiet: opts.quiet, color: opts.color, interactive: canPrompt() });
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // Commander's own errors (unknown option...) come before preAction: honour --json for them too.
    if (error instanceof CommanderError && error.exitCode !== 0 && argv.includes('--json')) ui = new Ui(streams, { json: true });
    process.exitCode = exitCodeOf(error, ui);
  }
}

/** Maps an error to its exit code, printing the message (and, with --json, a JSON document on stdout). */
export function exitCodeOf(error: unknown, ui: Ui): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return EXIT_CODES.ok;
    // Commander printed the message already; with --json, stdout still gets its one document.
    if (ui.options.json) ui.json({ error: { message: error.message.replace(/^error: /, ''), exitCode: EXIT_CODES.usage } });
    return EXIT_CODES.usage;
  }
  if (error instanceof ApiResponseError) {
    ui.error(error.message);
    if (ui.options.json) ui.json(error.data ?? error.envelope ?? { error: { message: error.message, exitCode: error.exitCode } });
    return error.exitCode;
  }
  if (error instanceof UsageError || error instanceof UnreachableError) {
    ui.error(error.message);
    if (ui.options.json) ui.json({ error: { message: error.message, exitCode: error.exitCode } });
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
