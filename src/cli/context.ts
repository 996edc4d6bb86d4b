/**
 * What every command function receives: the UI (injected IO), the connection, a client for the API, the
 * admin connection for `/__sandbox/`, and the journal. Tests build one with {@link makeContext} and call the
 * command functions directly; the CLI builds one per run in `registry.ts`.
 */
import { adminConnectionOf, ApiClient, type AdminConnection, type AdminFlags } from './client.js';
import { resolveConnection, type Connection, type GlobalFlags } from './config.js';
import { Journal } from './journal.js';
import type { Discovery } from './discovery.js';
import type { Transport } from './http.js';
import type { Ui } from './ui.js';

export interface CommandContext {
  ui: Ui;
  /** Base URL, business and credentials: flags > env > config file > defaults. */
  connection: Connection;
  client: ApiClient;
  /** The sandbox's `/__sandbox/` endpoints: the same base URL, and `--admin-token` / `PAYLINK_ADMIN_TOKEN`. */
  admin: AdminConnection;
  journal: Journal;
  /** The environment read for configuration and `${env:...}` references in fixtures. */
  env: NodeJS.ProcessEnv;
  /** Sends every request, when not the CLI's own transport (`http.ts`); tests may pass a `fetch`. */
  fetch?: Transport | undefined;
}

export interface MakeContextOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  fetch?: Transport;
  /** What sandbox discovery found for `cwd`, when the caller looked already (with a port probe). */
  discovery?: Discovery | undefined;
}

/**
 * Builds the context. The connection is resolved (flags > env > config file > defaults) when a command
 * first uses it, so commands that need none (`sandbox`, `completion`) never read the config file.
 */
export function makeContext(ui: Ui, flags: GlobalFlags & AdminFlags, options: MakeContextOptions = {}): CommandContext {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  let connection: Connection | undefined;
  let client: ApiClient | undefined;
  let admin: AdminConnection | undefined;
  let journal: Journal | undefined;
  return {
    ui,
    env,
    fetch: options.fetch,
    get connection() {
      connection ??= resolveConnection(flags, env, cwd, options.discovery);
      return connection;
    },
    get client() {
      client ??= new ApiClient({ ...this.connection, fetch: options.fetch });
      return client;
    },
    get admin() {
      admin ??= { ...adminConnectionOf(flags, env, cwd, options.discovery), fetch: options.fetch };
      return admin;
    },
    get journal() {
      journal ??= new Journal(cwd);
      return journal;
    },
  };
}
