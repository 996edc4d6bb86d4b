/**
 * Each flag is declared once (src/cli/flags.ts, commands/<verb>.spec.ts): read from the declarations the
 * program is built from, not from the source text.
 */
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { type Flag, NEED_FLAGS, PROGRAM_FLAGS } from '../../src/cli/flags.js';
import { COMMANDS } from '../../src/cli/registry.js';

interface Declared {
  /** Where: `program`, `needs admin`, or the command's words (`link create`). */
  where: string;
  flag: Flag;
}

/** Every spec with its words after `paylink`, parents before their subcommands. */
function specs(list: readonly CommandSpec[], prefix: string[] = []): Array<{ words: string; spec: CommandSpec }> {
  return list.flatMap((spec) => [{ words: [...prefix, spec.name].join(' '), spec }, ...specs(spec.commands ?? [], [...prefix, spec.name])]);
}

/** Every declaration of a flag: the program's, each need's, each command's own table. */
function declarations(): Declared[] {
  return [
    ...Object.values(PROGRAM_FLAGS).map((flag) => ({ where: 'program', flag })),
    ...Object.entries(NEED_FLAGS).flatMap(([need, table]) => Object.values(table as Record<string, Flag>).map((flag) => ({ where: `needs ${need}`, flag }))),
    ...specs(COMMANDS).flatMap(({ words, spec }) => Object.values(spec.options ?? {}).map((flag) => ({ where: words, flag }))),
  ];
}

/** `--limit` of `-n, --limit <n>`. */
const longName = (flag: Flag) => /--[\w-]+/.exec(flag.flags)?.[0] ?? flag.flags;

/**
 * Declarations of one meaning made more than once: the same long flag with the same help, as distinct
 * declarations (a table shared by several commands is one declaration, used by each).
 */
function declaredTwice(all: Declared[]): string[] {
  const byMeaning = new Map<string, Map<Flag, string[]>>();
  for (const { where, flag } of all) {
    const key = `${longName(flag)}: ${flag.help}`;
    const objects = byMeaning.get(key) ?? new Map<Flag, string[]>();
    objects.set(flag, [...(objects.get(flag) ?? []), where]);
    byMeaning.set(key, objects);
  }
  return [...byMeaning.entries()]
    .filter(([, objects]) => objects.size > 1)
    .map(([key, objects]) => `${key} (declared in ${[...objects.values()].map((places) => places.join(', ')).join(' and in ')})`);
}

describe('the CLI flag declarations', () => {
  it('declare no flag twice with the same meaning (one declaration, shared by the commands that take it)', () => {
    expect(declaredTwice(declarations())).toEqual([]);
  });

  it('finds a flag declared twice (the check works)', () => {
    const all = declarations();
    const copy = { ...NEED_FLAGS.admin.adminToken };
    expect(declaredTwice([...all, { where: 'reset', flag: copy }])).toContain(`--admin-token: ${copy.help} (declared in needs admin and in reset)`);
  });

  it('declare --admin-token once for every command that reaches /__sandbox/, attached by their need', () => {
    const admin = declarations().filter(({ flag }) => longName(flag) === '--admin-token');
    // `paylink sandbox --admin-token` is the token the sandbox requires, not the one a client sends.
    expect(admin.map(({ where }) => where)).toEqual(['needs admin', 'sandbox']);
    const needing = specs(COMMANDS).filter(({ spec }) => spec.needs?.includes('admin'));
    expect(needing.length).toBeGreaterThan(20);
  });

  it("never redeclare a program flag in a command's own table", () => {
    const program = new Set(Object.values(PROGRAM_FLAGS).map(longName));
    const shadowing = specs(COMMANDS).flatMap(({ words, spec }) =>
      Object.values(spec.options ?? {})
        .filter((flag) => program.has(longName(flag)))
        .map((flag) => `${words}: ${flag.flags}`),
    );
    expect(shadowing).toEqual([]);
  });

  it('give every command that runs a function its spec points to', async () => {
    for (const { words, spec } of specs(COMMANDS)) {
      if (spec.run === undefined) {
        expect(spec.commands?.length, `${words} has neither code nor subcommands`).toBeGreaterThan(0);
        continue;
      }
      expect(typeof (await spec.run()), words).toBe('function');
    }
  });
});
