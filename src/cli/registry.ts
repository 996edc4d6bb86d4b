/**
 * Turns the commands' declarations (`commands/<verb>.spec.ts`) into commander commands, with one loop. This
 * module is loaded at every start, so it stays light: it imports the specs and no command module. A command's
 * module is imported by its spec's `run` when that command runs, so `paylink --version` and `--help` load
 * only commander, the specs and a few pure modules, and `paylink pay` never loads the sandbox (changesets'
 * packages/cli and eslint's rule modules work the same way: each unit declares itself, one loop registers).
 */
import type { Command, Option } from 'commander';
import type { AnyRun, CommandSpec } from './command-spec.js';
import { type Flag, type Flags, NEED_FLAGS, type Need, type NeedFlagName, PROGRAM_FLAGS } from './flags.js';
import { advise } from './commands/advise.spec.js';
import { api } from './commands/api.spec.js';
import { checkout } from './commands/checkout.spec.js';
import { clock } from './commands/clock.spec.js';
import { completion } from './commands/completion.spec.js';
import { config } from './commands/config.spec.js';
import { doctor, env } from './commands/env.spec.js';
import { events } from './commands/events.spec.js';
import { faults } from './commands/faults.spec.js';
import { fixtures } from './commands/fixtures.spec.js';
import { follow } from './commands/follow.spec.js';
import { link } from './commands/link.spec.js';
import { listen } from './commands/listen.spec.js';
import { logs } from './commands/logs.spec.js';
import { open } from './commands/open.spec.js';
import { pay } from './commands/pay.spec.js';
import { payment } from './commands/payment.spec.js';
import { reset } from './commands/reset.spec.js';
import { sandbox } from './commands/sandbox.spec.js';
import { snapshot } from './commands/snapshot.spec.js';
import { status } from './commands/status.spec.js';
import { token } from './commands/token.spec.js';
import { trigger } from './commands/trigger.spec.js';
import { version } from './commands/version.spec.js';
import { wait } from './commands/wait.spec.js';
import { webhooks } from './commands/webhooks.spec.js';

/** Every command, in the order `paylink --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  sandbox,
  link,
  checkout,
  open,
  pay,
  follow,
  status,
  payment,
  token,
  completion,
  version,
  env,
  doctor,
  config,
  clock,
  logs,
  advise,
  reset,
  snapshot,
  wait,
  fixtures,
  webhooks,
  events,
  listen,
  faults,
  api,
  trigger,
];

/**
 * Runs one command: `load` gives its function (imports its module, only now); `args` and `options` are as
 * its spec types them. Builds the context and calls it; errors go to the one catch in `index.ts`.
 */
export type Runner = (
  cmd: Command,
  spec: CommandSpec,
  load: () => Promise<AnyRun>,
  args: Record<string, unknown>,
  options: Record<string, unknown>,
) => Promise<void>;

/** Every flag a spec's command takes: its own, then those of its needs (`--admin-token` last, as always). */
export function flagsOf(spec: CommandSpec): Flags {
  const table: Record<string, Flag> = { ...spec.options };
  for (const need of spec.needs ?? []) {
    for (const [key, shared] of Object.entries(NEED_FLAGS[need] as Flags)) {
      const help = spec.flagHelp?.[key as NeedFlagName];
      table[key] = help === undefined ? shared : { ...shared, help };
    }
  }
  return table;
}

/** The program's own flags, on `program`. */
export function registerProgramFlags(program: Command): void {
  for (const declared of Object.values(PROGRAM_FLAGS)) program.addOption(optionOf(program, declared));
}

/** Registers `specs` (and their subcommands) on `parent`. */
export function registerCommands(parent: Command, specs: readonly CommandSpec[], run: Runner): void {
  for (const spec of specs) {
    const cmd = parent.command([spec.name, ...(spec.args ?? [])].join(' ')).description(spec.description);
    const options = Object.entries(flagsOf(spec)).map(([key, declared]) => {
      const option = optionOf(cmd, declared);
      cmd.addOption(option);
      return [key, option] as const;
    });
    const after = helpAfter(spec);
    if (after !== undefined) cmd.addHelpText('after', after);
    const load = spec.run;
    if (load !== undefined) {
      const names = (spec.args ?? []).map((arg) => arg.replace(/^[<[]|(\.\.\.)?[>\]]$/g, ''));
      cmd.action(async (...given: unknown[]) => {
        // commander calls an action with the arguments, then the options object and the command.
        const args = Object.fromEntries(names.map((name, i) => [name, given[i]]));
        const values = Object.fromEntries(
          options.map(([key, option]) => [key, cmd.getOptionValue(option.attributeName())] as const).filter(([, value]) => value !== undefined),
        );
        await run(cmd, spec, load, args, values);
      });
    }
    registerCommands(cmd, spec.commands ?? [], run);
  }
}

/** A declared flag as a commander option (what `.option()` and `.requiredOption()` build). */
function optionOf(cmd: Command, declared: Flag): Option {
  const option = cmd.createOption(declared.flags, declared.help);
  if (declared.parse !== undefined) option.argParser(declared.parse.bind(declared));
  if (declared.default !== undefined) option.default(declared.default);
  if (declared.required === true) option.makeOptionMandatory();
  return option;
}

/** The help after the options: the spec's text, then its examples. */
function helpAfter(spec: CommandSpec): string | undefined {
  const examples = spec.examples?.length ? `Examples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}` : undefined;
  const parts = [spec.help, examples].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : `\n${parts.join('\n\n')}`;
}

/** The needs of a spec, for the runner. */
export function needs(spec: CommandSpec, need: Need): boolean {
  return spec.needs?.includes(need) === true;
}
