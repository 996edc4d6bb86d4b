/**
 * What every API command receives: the UI (injected IO), the connection, a client and the journal. Tests
 * build one with {@link makeContext} and call the command functions directly.
 */
import { ApiClient } from './client.js';
import { resolveConnection, type Connection, type GlobalFlags } from './config.js';
import { Journal } from './journal.js';
import type { Ui } from './ui.js';

export interface CommandContext {
  ui: Ui;
  connection: Connection;
  client: ApiClient;
  journal: Journal;
}

export interface MakeContextOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  fetch?: typeof fetch;
}

/** Resolves flags > env > config file > defaults and builds the client. */
export function makeContext(ui: Ui, flags: GlobalFlags, options: MakeContextOptions = {}): CommandContext {
  const connection = resolveConnection(flags, options.env ?? process.env, options.cwd ?? process.cwd());
  const client = new ApiClient({ ...connection, fetch: options.fetch });
  return { ui, connection, client, journal: new Journal(options.cwd ?? process.cwd()) };
}
