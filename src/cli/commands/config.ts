/**
 * `paylink config`: the settings the other commands would use from here, and where each came from (a flag,
 * the environment, `paylink.config.json` or package.json "paylink", the sandbox found in this folder, or
 * the default). Secrets show their last four characters. A config file with an unknown key is refused
 * here as everywhere (a typo such as `bizId` names the key it meant).
 */
import { configuredWebhookSecret, readConfigFile } from '../config.js';
import type { CommandContext } from '../context.js';

export interface ConfigSetting {
  value: string | number | null;
  source: string;
}

export interface ConfigReport {
  /** The config file read, or null. */
  file: string | null;
  settings: Record<'baseUrl' | 'businessId' | 'username' | 'password' | 'timeout' | 'ca' | 'adminToken' | 'webhookSecret', ConfigSetting>;
}

const masked = (secret: string | undefined) => (secret === undefined ? null : secret.length <= 4 ? '****' : `…${secret.slice(-4)}`);

/** Builds the report, prints it (a table, or one JSON document) and returns it. */
export function showConfig(ctx: CommandContext, flags: { adminToken?: string }): ConfigReport {
  const { connection, env } = ctx;
  const sources = connection.sources!;
  const file = readConfigFile(process.cwd());
  const adminToken = flags.adminToken ?? (env.PAYLINK_ADMIN_TOKEN || undefined);
  const webhookFromEnv = env.PAYLINK_WEBHOOK_SECRET || undefined;
  const webhookSecret = webhookFromEnv ?? configuredWebhookSecret();
  const report: ConfigReport = {
    file: file.name ?? null,
    settings: {
      baseUrl: { value: connection.baseUrl, source: sources.baseUrl },
      businessId: { value: connection.businessId, source: sources.businessId },
      username: { value: connection.username ?? null, source: sources.username },
      password: { value: masked(connection.password), source: sources.password },
      timeout: { value: (connection.timeoutMs ?? 0) / 1000, source: sources.timeout },
      ca: { value: connection.caFile ?? null, source: sources.ca },
      adminToken: { value: masked(adminToken), source: flags.adminToken !== undefined ? '--admin-token' : adminToken !== undefined ? 'PAYLINK_ADMIN_TOKEN' : 'default' },
      webhookSecret: {
        value: masked(webhookSecret),
        source: webhookFromEnv !== undefined ? 'PAYLINK_WEBHOOK_SECRET' : webhookSecret !== undefined ? (file.name ?? 'paylink.config.json') : 'default (paylink sandbox generates one and stores it)',
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
