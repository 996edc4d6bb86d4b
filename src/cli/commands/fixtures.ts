/**
 * `paylink fixtures load <file...>`: creates the links, checkouts, payments and tokens a fixture file
 * describes (docs/fixtures.md) and prints step name -> id (`--json` for CI).
 */
import type { Command } from 'commander';
import { resolveConnection, type GlobalFlags } from '../config.js';
import { UsageError } from '../errors.js';
import { adminConnectionOf, type AdminFlags } from '../fixtures/admin-api.js';
import { FixtureFormatError } from '../fixtures/format.js';
import { loadFixtures } from '../fixtures/load.js';
import { FixtureStepError, type RunFixturesResult } from '../fixtures/runner.js';
import type { Ui } from '../ui.js';

export interface FixturesLoadInput {
  files: string[];
  flags: AdminFlags & GlobalFlags;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  fetch?: typeof fetch;
}

/** Loads the files and prints the id map; a bad file is a usage error (2), a failing step an API error (3). */
export async function runFixturesLoad(input: FixturesLoadInput, ui: Ui): Promise<RunFixturesResult> {
  if (input.files.length === 0) throw new UsageError('fixtures load: give at least one fixture file.');
  const env = input.env ?? process.env;
  const connection = resolveConnection(input.flags, env, input.cwd ?? process.cwd());
  const admin = adminConnectionOf(input.flags, env, input.cwd ?? process.cwd());
  let result: RunFixturesResult;
  try {
    result = await loadFixtures(input.files, { connection, admin, env, fetch: input.fetch, onStep: (label) => ui.info(label) });
  } catch (error) {
    if (error instanceof FixtureFormatError) throw new UsageError(error.message);
    if (error instanceof FixtureStepError) {
      // With --json the CLI's one catch prints {step, request, response} (the error's data).
      if (!ui.options.json) {
        if (error.request !== undefined) ui.info(`request:  ${JSON.stringify(error.request)}`);
        if (error.response !== undefined) ui.info(`response: ${JSON.stringify(error.response)}`);
      }
    }
    throw error;
  }
  if (ui.options.json) ui.json({ ids: result.ids, steps: result.steps });
  else {
    const width = Math.max(0, ...Object.keys(result.ids).map((k) => k.length));
    for (const [name, id] of Object.entries(result.ids)) ui.line(`${name.padEnd(width)}  ${id}`);
    ui.info(`${result.steps.length} step(s) run.`);
  }
  return result;
}

export function registerFixtures(program: Command, ui: () => Ui): void {
  const fixtures = program.command('fixtures').description('Seed a sandbox from fixture files (docs/fixtures.md)')
    .addHelpText('after', '\nExamples:\n  $ paylink fixtures load fixtures/paid-link.json\n  $ paylink fixtures load fixtures/*.json --json');
  fixtures
    .command('load <files...>')
    .description('Run fixture files against the sandbox and print step name -> id')
    .option('--admin-token <token>', 'admin token for clock steps on a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)')
    .addHelpText('after', '\nExamples:\n  $ paylink fixtures load fixtures/paid-link.json\n  $ paylink fixtures load fixtures/*.json --json')
    .action(async (files: string[], _options, command: Command) => {
      await runFixturesLoad({ files, flags: command.optsWithGlobals<AdminFlags & GlobalFlags>() }, ui());
    });
}
