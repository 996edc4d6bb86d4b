/**
 * How a command declares itself: its name, arguments, options (flags.ts says how one is declared), the
 * shared flags it needs, its help and examples, and where its code is. Each command family writes one such
 * declaration beside its code (`commands/<verb>.spec.ts`); `registry.ts` turns them into commander commands
 * with one loop, and the command's function receives its arguments and options typed from that same
 * declaration, so a flag is written once. Types and one small helper only: every start loads this module.
 */
import type { Command } from 'commander';
import type { CommandContext } from './context.js';
import type { Flag, Flags, Need, NeedFlagName, OptionsOf, ProgramOptions } from './flags.js';

/** `<id>`, `[id]`, `<files...>` as commander writes them, to the argument's name and value. */
type ArgName<S extends string> = S extends `${'<' | '['}${infer N}...${'>' | ']'}` ? N : S extends `${'<' | '['}${infer N}${'>' | ']'}` ? N : never;
type ArgValue<S extends string> = S extends `${string}...${string}` ? string[] : S extends `[${string}` ? string | undefined : string;

/** The arguments a command's function receives, by name: `['<id>', '[scenario]']` gives `{ id: string; scenario: string | undefined }`. */
export type ArgsOf<A extends readonly string[]> = { [S in A[number] as ArgName<S>]: ArgValue<S> };

/** What every command's function receives besides its arguments and options. */
export interface RunContext extends CommandContext {
  /** The program's flags and `--admin-token` as given (with the command's own too: commander's `optsWithGlobals`). */
  readonly flags: ProgramOptions;
  /** The whole program, for commands that describe it (`completion`). */
  readonly program: Command;
}

/** Any command's function, as the registry calls it. */
export type AnyRun = (args: never, options: never, ctx: RunContext) => unknown;

export interface CommandSpec<A extends readonly string[] = readonly string[], O extends Flags = Flags> {
  /** The word after its parent: `create` in `paylink link create`. */
  readonly name: string;
  readonly args?: A;
  readonly description: string;
  readonly options?: O;
  /** Required of a spec that runs ({@link command}); test/unit/command-needs.test.ts lists those without `connection`. */
  readonly needs?: readonly Need[];
  /**
   * `ui`: the command's function uses only `ui`, `env` and `flags` of its context (`paylink sandbox`), so
   * the rest (connection, API client, journal) and their modules are not loaded for it, and when it is the
   * first word of the command line the program is built with it alone (index.ts `commandsFor`).
   */
  readonly context?: 'ui';
  /** A shared flag worded for this command (the same meaning, said for its case). */
  readonly flagHelp?: { readonly [K in NeedFlagName]?: string };
  /** Text `--help` shows after the options, before the examples. */
  readonly help?: string;
  /** Command lines `--help` shows after `$ `. */
  readonly examples?: readonly string[];
  /**
   * Imports the command's module, only when the command runs, and gives its function. The return type is
   * written out (`(): Later => import(...)`): inferring it would make the spec's type depend on the module,
   * whose function is typed from the spec.
   */
  readonly run?: () => Promise<AnyRun>;
  readonly commands?: readonly CommandSpec<readonly string[], Flags>[];
}

/** What a spec's `run` returns; see {@link CommandSpec.run}. */
export type Later = Promise<AnyRun>;

/**
 * A spec that runs says what it needs, `needs: []` when it is nothing: a command that forgot `connection`
 * would run without the connection resolved, so without this folder's sandbox found. A spec of subcommands
 * only runs nothing and needs nothing.
 */
type Runs = { readonly run: () => Promise<AnyRun>; readonly needs: readonly Need[] } | { readonly run?: undefined; readonly commands: readonly unknown[] };

/** Declares a command; the `const` parameters keep the flag texts and argument names for the types. */
export function command<const A extends readonly string[] = [], const O extends Flags = Readonly<Record<never, Flag>>>(
  spec: CommandSpec<A, O> & Runs,
): CommandSpec<A, O> {
  return spec;
}

/** The type of a command's function, from its spec: `export const linkCreate: Run<typeof create> = ...`. */
export type Run<S> = S extends CommandSpec<infer A, infer O> ? (args: ArgsOf<A>, options: OptionsOf<O>, ctx: RunContext) => unknown : never;

/** The arguments of a spec's command, for a function declared with parameters (`{ id }: Args<typeof pay>`). */
export type Args<S> = S extends CommandSpec<infer A, Flags> ? ArgsOf<A> : never;

/** The options of a spec's command, for a function declared with parameters. */
export type Options<S> = S extends CommandSpec<readonly string[], infer O> ? OptionsOf<O> : never;
