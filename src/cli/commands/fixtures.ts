/**
 * `paylink fixtures load <file...>`: creates the links, checkouts, payments and tokens a fixture file
 * describes (docs/fixtures.md) and prints step name -> id (`--json` for CI). The work is `seed/`'s.
 */
import type { Args, Options } from '../command-spec.js';
import type { fixturesLoad as spec } from './fixtures.spec.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { FixtureFormatError } from '../seed/format.js';
import { loadFixtures } from '../seed/load.js';
import { FixtureStepError, type RunFixturesResult } from '../seed/runner.js';

/** Loads the files and prints the id map; a bad file is a usage error (2), a failing step an API error (3). */
export async function fixturesLoad({ files }: Args<typeof spec>, _flags: Options<typeof spec>, ctx: CommandContext): Promise<RunFixturesResult> {
  const { ui } = ctx;
  if (files.length === 0) throw new UsageError('fixtures load: give at least one fixture file.');
  let result: RunFixturesResult;
  try {
    result = await loadFixtures(files, {
      connection: ctx.connection,
      admin: ctx.admin,
      env: ctx.env,
      fetch: ctx.fetch,
      onStep: (label) => ui.info(label),
      onSkip: (path) => ui.info(`Skipped ${path}: a JSON Schema, not a fixture file.`),
    });
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
