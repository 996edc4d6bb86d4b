/**
 * A command that talks to a sandbox declares `needs: ['connection']`, so the connection is resolved (and
 * this folder's sandbox found) before it runs. Held twice: `command()` refuses a spec that runs without
 * saying what it needs (compiled below, as a file of src/cli/commands/), and the registry is walked for
 * the commands that run without the connection, which must be the ones listed here, each with its reason.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { CommandSpec } from '../../src/cli/command-spec.js';
import { COMMANDS } from '../../src/cli/registry.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The commands that run without the connection resolved, and why (each spec says so beside its `needs`).
 * A command added to the CLI that talks to a sandbox does not belong here.
 */
const WITHOUT_CONNECTION: Readonly<Record<string, string>> = {
  // Starts a sandbox and serves it; it calls none.
  sandbox: 'serves',
  // Writes a shell script from the program's own declarations.
  completion: 'offline',
  // Print and check the proxy of the sandbox started in this folder, which they find themselves
  // (discovery.ts), and report what is missing instead of failing on an unresolved connection.
  env: 'finds its own',
  doctor: 'finds its own',
  // Shows a connection that cannot be resolved, and why, instead of failing.
  config: 'shows the connection',
  // Waits for a sandbox to appear: resolving it first would fail before the wait.
  wait: 'waits for one',
};

/** Every spec that runs, by its words after `paylink`. */
function runnable(list: readonly CommandSpec[], prefix: string[] = []): Array<{ words: string; spec: CommandSpec }> {
  return list.flatMap((spec) => {
    const words = [...prefix, spec.name];
    return [...(spec.run === undefined ? [] : [{ words: words.join(' '), spec }]), ...runnable(spec.commands ?? [], words)];
  });
}

/** The commands that run without `connection` among `specs`. */
const withoutConnection = (specs: readonly CommandSpec[]) =>
  runnable(specs)
    .filter(({ spec }) => !spec.needs?.includes('connection'))
    .map(({ words }) => words);

/** The type errors of `text` compiled as src/cli/commands/<name>.spec.ts, with the project's options. */
function typeErrors(name: string, text: string): string[] {
  const file = join(ROOT, 'src', 'cli', 'commands', `__${name}-fixture__.spec.ts`);
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const options = { ...ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options, noEmit: true, declaration: false, sourceMap: false };
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile } = host;
  host.fileExists = (f) => f === file || fileExists.call(host, f);
  host.readFile = (f) => (f === file ? text : readFile.call(host, f));
  const program = ts.createProgram({ rootNames: [file], options, host });
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const spec = (needs: string) => `import { command, type Later } from '../command-spec.js';
export const probe = command({
  name: 'probe',
  description: 'a probe',${needs}
  run: (): Later => import('./version.js').then((m) => m.version),
});
export const group = command({ name: 'group', description: 'subcommands only', commands: [probe] });\n`;

describe('the commands that talk to a sandbox', () => {
  it('declare the connection, apart from the commands listed with the reason they need none', () => {
    expect(withoutConnection(COMMANDS).sort()).toEqual(Object.keys(WITHOUT_CONNECTION).sort());
  });

  it('finds a command that forgot it (the check works)', () => {
    const forgot = { name: 'refund-all', description: 'refunds', needs: ['admin'], run: async () => () => undefined } as CommandSpec;
    expect(withoutConnection([...COMMANDS, forgot])).toContain('refund-all');
  });

  it('cannot be declared without saying what they need (a type error)', () => {
    expect(typeErrors('declared', spec("\n  needs: ['connection'],"))).toEqual([]);
    expect(typeErrors('none', spec('\n  needs: [],'))).toEqual([]);
    expect(typeErrors('forgot', spec('')).join('\n')).toMatch(/needs/);
  }, 60_000);
});
