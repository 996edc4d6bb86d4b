/**
 * Reads fixture files from disk and runs them: the entry `paylink fixtures load` and
 * `paylink sandbox --seed` share.
 */
import { readFileSync } from 'node:fs';
import { ApiClient, type AdminConnection } from '../client.js';
import type { Connection } from '../config.js';
import type { Transport } from '../http.js';
import { FixtureFormatError, isJsonSchemaText, parseFixture, type FixtureFile } from './format.js';
import { runFixtures, type RunFixturesResult } from './runner.js';

/**
 * Reads and validates every file before any step runs; later files may refer to earlier files' steps. A
 * JSON Schema among them (`fixtures/*.json` takes in `fixtures/schema.json`) is skipped and reported
 * through `onSkip`; a list with nothing but schemas is an error.
 */
export function readFixtureFiles(paths: string[], onSkip?: (path: string) => void): FixtureFile[] {
  const known = new Set<string>();
  const files: FixtureFile[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new FixtureFormatError(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
    if (isJsonSchemaText(text)) {
      onSkip?.(path);
      continue;
    }
    files.push(parseFixture(text, path, known));
  }
  if (files.length === 0) throw new FixtureFormatError(`${paths.join(', ')}: no fixture file here, only JSON Schemas. Give fixture files (docs/fixtures.md).`);
  return files;
}

export interface LoadFixturesOptions {
  connection: Connection;
  admin: AdminConnection;
  env?: NodeJS.ProcessEnv;
  fetch?: Transport;
  onStep?: (label: string) => void;
  /** Called for each file skipped as a JSON Schema. */
  onSkip?: (path: string) => void;
}

/** Reads, validates and runs fixture files against the API at `connection.baseUrl`. */
export async function loadFixtures(paths: string[], options: LoadFixturesOptions): Promise<RunFixturesResult> {
  const files = readFixtureFiles(paths, options.onSkip);
  const clients = new Map<string, ApiClient>();
  const clientFor = (businessId: string | undefined) => {
    const id = businessId ?? options.connection.businessId;
    let client = clients.get(id);
    if (!client) {
      // Fixture runs are seed data: marked `fixtures`, the advisor leaves them out whole (docs/advisor.md).
      client = new ApiClient({ ...options.connection, businessId: id, fetch: options.fetch, client: 'fixtures' });
      clients.set(id, client);
    }
    return client;
  };
  return runFixtures(files, {
    clientFor,
    admin: { ...options.admin, fetch: options.fetch ?? options.admin.fetch, client: 'fixtures' },
    env: options.env,
    onStep: options.onStep,
  });
}
