/**
 * `paylink reset`: empties the sandbox (links, checkouts, payments, tokens, the request log) through
 * `POST /__sandbox/reset`. Asks first on a terminal; scripts pass `--yes`.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { adminConnectionOf, adminOk, type AdminConnection, type AdminFlags } from '../fixtures/admin-api.js';
import type { Ui } from '../ui.js';

export interface ResetOptions {
  /** Skip the question. */
  yes?: boolean | undefined;
  /** Asks the question; undefined when nobody can answer (not a terminal, CI). */
  confirm?: ((message: string) => Promise<boolean>) | undefined;
}

/** Resets the sandbox; resolves with rows deleted per table, or undefined when the person said no. */
export async function runReset(conn: AdminConnection, ui: Ui, options: ResetOptions = {}): Promise<Record<string, number> | undefined> {
  if (!options.yes) {
    if (!options.confirm) throw new UsageError('paylink reset deletes every link, checkout, payment, token and logged request: pass --yes to confirm when not on a terminal.');
    const ok = await options.confirm(`Delete every link, checkout, payment, token and logged request of the sandbox at ${conn.baseUrl}?`);
    if (!ok) {
      ui.info('Nothing was deleted.');
      return undefined;
    }
  }
  const envelope = await adminOk(conn, 'POST', '/__sandbox/reset', {});
  const deleted = envelope.body.deleted as Record<string, number>;
  if (ui.options.json) ui.json({ reset: true, deleted });
  else ui.line(`Sandbox reset: ${Object.entries(deleted).map(([table, n]) => `${n} ${table.replace(/_/g, ' ')}`).join(', ')} deleted.`);
  return deleted;
}

/** A yes/no question on stderr with @inquirer/prompts, or undefined when stdin/stderr are not a terminal or CI is set. */
function terminalConfirm(): ((message: string) => Promise<boolean>) | undefined {
  const ci = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true || ci) return undefined;
  return async (message) => {
    const { confirm } = await import('@inquirer/prompts');
    return confirm({ message, default: false }, { output: process.stderr });
  };
}

export function registerReset(program: Command, ui: () => Ui): void {
  program
    .command('reset')
    .description('Delete everything in the sandbox (links, checkouts, payments, tokens, request log)')
    .option('-y, --yes', 'do not ask (for scripts and CI)')
    .option('--admin-token <token>', 'admin token of a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)')
    .addHelpText('after', '\nExamples:\n  $ paylink reset\n  $ paylink reset --yes')
    .action(async (options: { yes?: boolean }, command: Command) => {
      await runReset(adminConnectionOf(command.optsWithGlobals<AdminFlags>()), ui(), { yes: options.yes, confirm: terminalConfirm() });
    });
}
