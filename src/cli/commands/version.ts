/**
 * `paylink version`: the CLI's version, the API version it speaks, the browser library version the sandbox
 * serves, Node's, and whether a sandbox answers at the base URL (`--json` for bug reports and CI logs).
 */
import type { Args, Options } from '../command-spec.js';
import type { version as spec } from './version.spec.js';
import { PACKAGE_VERSION } from '../../package-files.js';
import { adminRequest } from '../client.js';
import type { CommandContext } from '../context.js';
import { API_BASE } from '../../sandbox/domain/routes.js';

/** The `--json` output. */
export interface VersionInfo {
  cli: string;
  /** The API version the commands call (`{api}`). */
  api: 'v3';
  /** The browser library versions the sandbox of this package serves (`/paymentlink/<version>/...`). */
  library: { paymentlink: string; checkout: string };
  node: string;
  /** `problem`: why it is not reachable, as the other commands would say it (an untrusted certificate...). */
  sandbox: { baseUrl: string; reachable: boolean; problem?: string | undefined };
}

/** How long `version` waits for the sandbox: it is a side note, not what was asked for. */
const HEALTH_TIMEOUT_MS = 1500;

export async function version(_args: Args<typeof spec>, _flags: Options<typeof spec>, ctx: CommandContext): Promise<VersionInfo> {
  let reachable = false;
  let problem: string | undefined;
  try {
    const answer = await adminRequest(ctx.admin, 'GET', '/__sandbox/health', undefined, { timeoutMs: HEALTH_TIMEOUT_MS });
    reachable = answer.status === 200;
    if (!reachable)
      problem = `it answered HTTP ${answer.status}${answer.status === 401 ? ': pass its admin token (--admin-token or PAYLINK_ADMIN_TOKEN)' : ''}`;
  } catch (error) {
    reachable = false;
    // An untrusted certificate answers, and is not "does not answer": the message the commands give says which.
    problem = (error as Error).message;
  }
  const info: VersionInfo = {
    cli: PACKAGE_VERSION,
    api: 'v3',
    // The package serves the library of its own version (src/sandbox/web/library.ts).
    library: { paymentlink: PACKAGE_VERSION, checkout: PACKAGE_VERSION },
    node: process.version,
    sandbox: { baseUrl: ctx.connection.baseUrl, reachable, ...(problem !== undefined ? { problem } : {}) },
  };
  const { ui } = ctx;
  if (ui.options.json) ui.json(info);
  else {
    ui.line(`paylink ${info.cli}`);
    ui.field('API', `${info.api} (${API_BASE})`);
    ui.field('Browser library', `paymentlink ${info.library.paymentlink}, checkout ${info.library.checkout}`);
    ui.field('Node', info.node);
    ui.field('Sandbox', `${info.sandbox.baseUrl} ${reachable ? ui.color.green('answers') : ui.color.yellow('not usable')}`);
    if (problem !== undefined) ui.wrapped(problem, ' '.repeat(21));
  }
  return info;
}
