/**
 * Each flag is declared once (src/cli/flags.ts, commands/<verb>.spec.ts): read from the declarations the
 * program is built from, not from the source text.
 */
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { CARD_FLAGS, type Flag, flag, NEED_FLAGS, PROGRAM_FLAGS } from '../../src/cli/flags.js';
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
 * The places (a command's words) where a flag name other commands take too means something else, so is
 * declared apart (the spec or flags.ts says why in a comment beside it). Every other declaration of the
 * name must be one object, shared. A place listed here must declare the name (the list stays true).
 */
const OTHER_MEANINGS: Readonly<Record<string, readonly string[]>> = {
  // The client's token against the one `paylink sandbox` requires.
  '--admin-token': ['sandbox'],
  // What is created (CREATE_FLAGS) against a part of a payment, and a fault rule's match.
  '--amount': ['payment capture', 'payment refund', 'faults add'],
  // The brands a hosted form offers (HOSTED_CREATE_FLAGS) against the one brand of a payment, of a token
  // (cards only), of a scenario, and a fault rule's match.
  '--brand': ['payment create', 'token create', 'trigger', 'faults add'],
  // A filter (BUSINESS_FILTER_FLAG) against what reset deletes, whom events send delivers to, whom trigger
  // acts as, and listen's default of the --business-id given.
  '--business': ['reset', 'events send', 'trigger', 'listen'],
  // The JSON kept with a token against the id tokens are listed by.
  '--customer': ['token create', 'token list'],
  // Pages of the lists (LIST_FLAGS) against the request log's and the events' unpaged counts.
  '--limit': ['logs', 'events list'],
  // Request filters of the log against a fault rule's match.
  '--method': ['logs', 'faults add'],
  '--path': ['logs', 'faults add'],
  // A test card (CARD_FLAGS) against pay's, which also names the button of a bank or wallet page.
  '--outcome': ['pay'],
  // What an id is (ID_KIND_FLAGS) against the payment whose events to show.
  '--payment': ['events list'],
  // The hosted form's return (HOSTED_CREATE_FLAGS) against a bank or wallet page's, and the one follow matches.
  '--return-url': ['payment create', 'follow'],
  // Created since (LIST_FLAGS) against advise's span of traffic and listen's replay start.
  '--since': ['advise', 'listen'],
  // Each list's states, a status class of the log, a fault's answer.
  '--status': ['link list', 'checkout list', 'payment list', 'logs', 'faults add'],
  // The hosted form's mode (HOSTED_CREATE_FLAGS) against payment create's switch.
  '--tokenize': ['payment create'],
  // Created with (CREATE_FLAGS) against listed by (LIST_FLAGS) and read by (GET_BY_TRACKING_CODE_FLAG).
  '--tracking-code': ['link list', 'checkout list', 'payment list', 'token list', 'link get', 'checkout get', 'payment get'],
};

/**
 * Names declared more than once outside {@link OTHER_MEANINGS}: the same long flag as distinct declarations
 * (a table or flag shared by several commands is one declaration, used by each), whatever their help says.
 */
function declaredTwice(all: Declared[], other: Readonly<Record<string, readonly string[]>> = OTHER_MEANINGS): string[] {
  const byName = new Map<string, Map<Flag, string[]>>();
  for (const { where, flag } of all) {
    const objects = byName.get(longName(flag)) ?? new Map<Flag, string[]>();
    objects.set(flag, [...(objects.get(flag) ?? []), where]);
    byName.set(longName(flag), objects);
  }
  return [...byName.entries()].flatMap(([name, objects]) => {
    const others = [...objects.entries()].filter(([, places]) => !places.every((where) => other[name]?.includes(where)));
    return others.length > 1 ? [`${name} (declared in ${others.map(([flag, places]) => `${places.join(', ')}: "${flag.help}"`).join(' and in ')})`] : [];
  });
}

describe('the CLI flag declarations', () => {
  it('declare each flag name once, shared by the commands that take it, apart from the places where it means something else', () => {
    expect(declaredTwice(declarations())).toEqual([]);
  });

  it('finds a flag declared again with the same help (the check works)', () => {
    const copy = { ...NEED_FLAGS.admin.adminToken };
    expect(declaredTwice([...declarations(), { where: 'reset', flag: copy }])).toEqual([
      `--admin-token (declared in needs admin: "${copy.help}" and in reset: "${copy.help}")`,
    ]);
  });

  it('finds a flag declared again with other help (the check works)', () => {
    const copy = flag('--cvv <cvv>', 'default 123 (1234 for American Express)');
    const found = declaredTwice([...declarations(), { where: 'payment create', flag: copy }]);
    expect(found).toEqual([`--cvv (declared in pay, payment create: "${CARD_FLAGS.cvv.help}" and in payment create: "${copy.help}")`]);
  });

  it('list in OTHER_MEANINGS only places that declare that name', () => {
    const declared = new Set(declarations().map(({ where, flag }) => `${where} ${longName(flag)}`));
    const stale = Object.entries(OTHER_MEANINGS).flatMap(([name, places]) => places.filter((where) => !declared.has(`${where} ${name}`)));
    expect(stale).toEqual([]);
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
