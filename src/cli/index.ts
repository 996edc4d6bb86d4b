/**
 * Builds the commander program and runs it. The one place that decides how the process ends: one catch
 * maps typed errors to exit codes (`exit-codes.ts`, docs/cli.md "Exit codes").
 *
 * Start-up is kept to commander, the commands' declarations (`commands/<verb>.spec.ts`) and the loop that
 * registers them (`registry.ts`): a command's module, and what it needs (ora, prompts, chalk, `open`, the
 * sandbox), is imported only when that command runs, so `paylink --version` and `--help` cost little more
 * than starting node.
 */
import { Command, CommanderError } from 'commander';
import { ApiResponseError, CancelledError, isSandboxFailure, portInUseMessage, UnreachableError, UsageError } from './errors.js';
import { defaultPort } from './defaults.js';
import { EXIT_CODES } from './exit-codes.js';
import { COMMANDS, needs, registerCommands, registerProgramFlags, type Runner } from './registry.js';
import type { ProgramOptions } from './flags.js';
import type { CommandSpec } from './command-spec.js';
import { PACKAGE_VERSION } from '../package-files.js';
import type { Ui, UiStreams } from './ui.js';
import type { CommandContext } from './context.js';

/**
 * The program with every command registered. `ui` gives the UI of the current run (built once the flags
 * are known); commands build their context from it and the parsed flags.
 */
export function buildProgram(ui: () => Ui, commands: readonly CommandSpec[] = COMMANDS): Command {
  const program = new Command();
  program.name('paylink').description('Local sandbox and command-line tool for the payment-link and checkout API v3').version(PACKAGE_VERSION);
  registerProgramFlags(program);
  program
    .exitOverride()
    // A hint, not the whole help: the help scrolled the error (and "Did you mean ...?") off the screen.
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `
Configuration: flags > environment > ./paylink.config.json or package.json "paylink" ({"baseUrl", "businessId", "username", "password", "webhookSecret"}; paylink config shows where each setting came from) > defaults.
Exit codes: 0 done as asked, 2 usage error, 3 API error, 4 sandbox unreachable, 70 internal error, 130 cancelled (Ctrl-C).

Examples:
  $ paylink sandbox
  $ paylink link create --amount 12.50 --currency EUR --return-url http://localhost:3000/return
  $ paylink pay <linkId> --outcome approved
  $ paylink status <linkId> --json`,
    );
  const run: Runner = async (cmd, spec, load, args, options) => {
    // PAYLINK_PORT checked once, for every command, whatever its flags: a typo stops the first step of a CI
    // job (exit 2) rather than only the one that falls back to the default URL.
    defaultPort(process.env);
    const [command, context] = await Promise.all([load(), spec.context === 'ui' ? undefined : import('./context.js')]);
    // Typed by the declarations the program was built from (flags.ts).
    const flags = cmd.optsWithGlobals<ProgramOptions>();
    const connection = needs(spec, 'connection');
    // No base URL given here: the sandbox started in this folder, its port probed (discovery.ts).
    const discovery =
      connection && flags.baseUrl === undefined && !process.env.PAYLINK_BASE_URL
        ? await (await import('./discovery.js')).discoverSandbox(process.cwd())
        : undefined;
    const ctx = Object.assign(context === undefined ? uiOnlyContext(ui()) : context.makeContext(ui(), flags, { discovery }), { flags, program });
    if (connection) for (const note of ctx.connection.notes ?? []) ui().warn(note);
    await command(args as never, options as never, ctx);
  };
  registerCommands(program, commands, run);
  return program;
}

/**
 * The commands the program is built with for `argv` (as `process.argv`): a command declared with `context:
 * 'ui'` alone when it is the first word (`paylink sandbox --port 0`), every command otherwise. Its help, its
 * errors and its run are the same either way (commander's suggestions for a mistyped option come from the
 * command's own options); registering the other commands, their options and help, took about 3 ms of the
 * sandbox's start.
 */
export function commandsFor(argv: readonly string[]): readonly CommandSpec[] {
  const named = COMMANDS.find((spec) => spec.name === argv[2]);
  return named?.context === 'ui' ? [named] : COMMANDS;
}

/** The context of a command declared with `context: 'ui'`: its UI and environment, and nothing it did not declare. */
function uiOnlyContext(ui: Ui): CommandContext {
  const undeclared = (part: string): never => {
    throw new Error(`internal: a command declared with context 'ui' used ${part}`);
  };
  return {
    ui,
    env: process.env,
    get connection() {
      return undeclared('the connection');
    },
    get client() {
      return undeclared('the API client');
    },
    get admin() {
      return undeclared('the admin connection');
    },
    get journal() {
      return undeclared('the journal');
    },
  };
}

/** Runs the CLI with `argv` (as `process.argv`) and ends the process with the documented exit code. */
export async function main(argv: string[]): Promise<void> {
  const streams: UiStreams = { stdout: process.stdout, stderr: process.stderr };
  endQuietlyOnClosedPipe(process.stdout);
  endQuietlyOnClosedPipe(process.stderr);
  let ui: Ui | undefined;
  const program = buildProgram(() => ui!, commandsFor(argv));
  program.hook('preAction', async (_this, action) => {
    const opts = action.optsWithGlobals() as { json?: boolean; quiet?: boolean; color?: boolean };
    const { whyNoPrompt, Ui } = await import('./ui.js');
    const noPromptReason = whyNoPrompt();
    ui = new Ui(streams, { json: opts.json, quiet: opts.quiet, color: opts.color, interactive: noPromptReason === undefined, noPromptReason });
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (isQuietEnd(error)) return;
    // Commander's own errors (unknown option...) come before preAction: honour --json for them too.
    // So do flag values refused while parsing (`--status nope`, `--limit 500`): they come before it too.
    if (!ui || (error instanceof CommanderError && argv.includes('--json'))) {
      const { Ui } = await import('./ui.js');
      ui = new Ui(streams, { json: argv.includes('--json') });
    }
    process.exitCode = exitCodeOf(error, ui);
  }
  // The command is done: end now rather than when idle keep-alive sockets to the sandbox let go (about
  // 40 ms after `paylink pay`), once what was written has reached stdout and stderr.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}

/**
 * `paylink status <id> | head -1`: once the reader has gone, writing fails with EPIPE, which Node raises as
 * an unhandled 'error' event (a crash with a stack). The reader has all it wanted: end quietly, with the
 * exit code the command has so far (0 unless it already failed), as `cat` and `git` do under a closed pipe.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit();
    throw error;
  });
}

/** Resolves once everything written to `stream` so far has been handed to the system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

/** `--help`, `--version` and commander's other successful ends: nothing to report, exit 0. */
function isQuietEnd(error: unknown): boolean {
  return error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0);
}

/** Maps an error to its exit code, printing the message (and, with --json, a JSON document on stdout). */
export function exitCodeOf(error: unknown, ui: Ui): number {
  if (error instanceof CommanderError) {
    if (isQuietEnd(error)) return EXIT_CODES.ok;
    // Commander printed the message already; with --json, stdout still gets its one document.
    if (ui.options.json) ui.json({ error: { message: error.message.replace(/^error: /, ''), exitCode: EXIT_CODES.usage } });
    return EXIT_CODES.usage;
  }
  if (error instanceof ApiResponseError) {
    ui.error(error.message);
    if (ui.options.json) ui.json(error.data ?? error.envelope ?? { error: { message: error.message, exitCode: error.exitCode } });
    return error.exitCode;
  }
  if (error instanceof CancelledError) {
    // A person pressed Ctrl-C: no stack, no "error", and with --json still one document on stdout.
    ui.note(error.message);
    if (ui.options.json) ui.json({ error: { message: error.message, exitCode: error.exitCode } });
    return error.exitCode;
  }
  if (error instanceof UsageError || error instanceof UnreachableError) {
    ui.error(error.message);
    if (ui.options.json) ui.json({ error: { message: error.message, exitCode: error.exitCode } });
    return error.exitCode;
  }
  if (isSandboxFailure(error)) {
    ui.error(`${error.description} (${error.result}, code ${error.code}): ${error.message}`);
    return EXIT_CODES.api;
  }
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    ui.error(portInUseMessage(error as Error));
    return EXIT_CODES.usage;
  }
  // `paylink sandbox` on a database file another sandbox holds, or that is not a usable SQLite file.
  if (code === 'EDBINUSE' || code === 'EDBUNUSABLE') {
    ui.error((error as Error).message);
    return EXIT_CODES.usage;
  }
  ui.error(`unexpected failure: ${(error as Error)?.stack ?? String(error)}`);
  return EXIT_CODES.internal;
}
