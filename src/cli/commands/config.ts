/**
 * `paylink config`: the settings the other commands would use from here, and where each came from (a flag,
 * the environment, `paylink.config.json` or package.json "paylink", the sandbox found in this folder, or
 * the default). Secrets show their last four characters. A config file with an unknown key is refused
 * here as everywhere (a typo such as `bizId` names the key it meant).
 */
import type { Run } from '../command-spec.js';
import type { config as spec } from './config.spec.js';
import type { AdminFlags } from '../client.js';
import { configuredWebhookSecret, readConfigFile, resolveConnection, type GlobalFlags } from '../config.js';
import type { CommandContext } from '../context.js';
import { discoverSandbox, sandboxOf } from '../discovery.js';
import { PORT_ENV } from '../defaults.js';

export interface ConfigSetting {
  value: string | number | null;
  source: string;
}

export interface ConfigReport {
  /** The config file read, or null. */
  file: string | null;
  settings: Record<'baseUrl' | 'businessId' | 'username' | 'password' | 'timeout' | 'ca' | 'adminToken' | 'webhookSecret', ConfigSetting>;
}

/** Secrets shorter than this are masked whole: the last four of a six-character password are most of it. */
const SHOWN_TAIL_FROM = 12;

const masked = (secret: string | undefined) => (secret === undefined ? null : secret.length < SHOWN_TAIL_FROM ? '****' : `…${secret.slice(-4)}`);

/**
 * Builds the report, prints it (a table, or one JSON document) and returns it. `globals` are the global
 * flags as parsed. When the sandbox started from this folder has stopped (or several run), the settings
 * are shown all the same, with the base URL's value empty and why in its "from": `config` is where one
 * looks to find out, so it does not exit 4 as the commands that need the sandbox do.
 */
export async function showConfig(ctx: CommandContext, flags: { adminToken?: string }, globals: GlobalFlags & AdminFlags = {}): Promise<ConfigReport> {
  const { env } = ctx;
  const cwd = process.cwd();
  let connection = resolveConnection(globals, env, cwd, { kind: 'none' });
  let baseUrlProblem: string | undefined;
  // No base URL configured (the default, on PAYLINK_PORT's port or not): the folder's sandbox decides.
  if (connection.sources?.baseUrl === 'default' || connection.sources?.baseUrl === PORT_ENV) {
    const discovery = await discoverSandbox(cwd);
    try {
      sandboxOf(discovery, cwd);
      connection = resolveConnection(globals, env, cwd, discovery);
    } catch (error) {
      baseUrlProblem = (error as Error).message;
    }
  }
  const sources = connection.sources!;
  const file = readConfigFile(process.cwd());
  const adminToken = flags.adminToken ?? (env.PAYLINK_ADMIN_TOKEN || undefined);
  const webhookFromEnv = env.PAYLINK_WEBHOOK_SECRET || undefined;
  const webhookSecret = webhookFromEnv ?? configuredWebhookSecret();
  const report: ConfigReport = {
    file: file.name ?? null,
    settings: {
      baseUrl: baseUrlProblem === undefined ? { value: connection.baseUrl, source: sources.baseUrl } : { value: null, source: baseUrlProblem },
      businessId: { value: connection.businessId, source: sources.businessId },
      username: { value: connection.username ?? null, source: sources.username },
      password: { value: masked(connection.password), source: sources.password },
      timeout: { value: (connection.timeoutMs ?? 0) / 1000, source: sources.timeout },
      ca: { value: connection.caFile ?? null, source: sources.ca },
      adminToken: {
        value: masked(adminToken ?? connection.entryAdminToken),
        source:
          flags.adminToken !== undefined
            ? '--admin-token'
            : adminToken !== undefined
              ? 'PAYLINK_ADMIN_TOKEN'
              : connection.entryAdminToken !== undefined
                ? sources.baseUrl
                : 'default',
      },
      webhookSecret: {
        value: masked(webhookSecret),
        source:
          webhookFromEnv !== undefined
            ? 'PAYLINK_WEBHOOK_SECRET'
            : webhookSecret !== undefined
              ? (file.name ?? 'paylink.config.json')
              : 'default (paylink sandbox generates one and stores it)',
      },
    },
  };
  if (ctx.ui.options.json) ctx.ui.json(report);
  else {
    ctx.ui.table(
      ['setting', 'value', 'from'],
      Object.entries(report.settings).map(([name, s]) => [name, s.value === null ? ctx.ui.color.dim('(none)') : String(s.value), s.source]),
    );
  }
  return report;
}

export const configCommand: Run<typeof spec> = (_args, _flags, ctx) => showConfig(ctx, ctx.flags, ctx.flags);
