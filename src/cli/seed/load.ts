/**
 * Reads fixture files from disk and runs them: the entry `paylink fixtures load` and
 * `paylink sandbox --seed` share.
 */
import { readFileSync } from 'node:fs';
import { ApiClient, type AdminConnection } from '../client.js';
import type { Connection } from '../config.js';
import type { Transport } from '../http.js';
import { FixtureFormatError, parseFixture, type FixtureFile } from './format.js';
import { runFixtures, type RunFixturesResult } from './runner.js';

/** Reads and validates every file before any step runs; later files may refer to earlier files' steps. */
export function readFixtureFiles(paths: string[]): FixtureFile[] {
  const known = new Set<string>();
  return paths.map((path) => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new FixtureFormatError(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
    return parseFixture(text, path, known);
  });
}

export interface LoadFixturesOptions {
  connection: Connection;
  admin: AdminConnection;
  env?: NodeJS.ProcessEnv;
  fetch?: Transport;
  onStep?: (label: string) => void;
}

/** Reads, validates and runs fixture files against the API at `connection.baseUrl`. */
export async function loadFixtures(paths: string[], options: LoadFixturesOptions): Promise<RunFixturesResult> {
  const files = readFixtureFiles(paths);
  const clients = new Map<string, ApiClient>();
  const clientFor = (businessId: string | undefined) => {
    const id = businessId ?? options.connection.businessId;
    let client = clients.get(id);
    if (!client) {
      client = new ApiClient({ ...options.connection, businessId: id, fetch: options.fetch });
      clients.set(id, client);
    }
    return client;
  };
  return runFixtures(files, { clientFor, admin: { ...options.admin, fetch: options.fetch ?? options.admin.fetch }, env: options.env, onStep: options.onStep });
}
