/**
 * `paylink reset`: empties the sandbox (links, checkouts, payments, tokens, the request log) through
 * `POST /__sandbox/reset`. Asks first on a terminal; scripts pass `--yes`.
 */
import type { Options, Run } from '../command-spec.js';
import type { reset as spec } from './reset.spec.js';
import { adminOk, type AdminConnection } from '../client.js';
import type { Ui } from '../ui.js';

/** `--yes` skips the question; `--business` deletes only that business's data. */
export type ResetOptions = Options<typeof spec>;

/**
 * Resets the sandbox; resolves with rows deleted per table, or undefined when the person said no. The
 * question goes through the UI's prompter: only on a terminal outside CI, else `--yes` is required.
 */
export async function runReset(conn: AdminConnection, ui: Ui, options: ResetOptions = {}): Promise<Record<string, number> | undefined> {
  const business = options.business;
  const ok = await ui.need(options.yes ? true : undefined, '--yes', (prompter) =>
    prompter.select({
      message:
        business === undefined
          ? `Delete every link, checkout, payment, token and logged request of the sandbox at ${conn.baseUrl}?`
          : `Delete every link, checkout, payment, token, event and logged request of business ${business} in the sandbox at ${conn.baseUrl}?`,
      choices: [
        { name: 'No, keep everything', value: false },
        { name: business === undefined ? 'Yes, delete everything' : `Yes, delete ${business}'s data`, value: true },
      ],
      default: false,
    }),
  );
  if (!ok) {
    ui.info('Nothing was deleted.');
    return undefined;
  }
  const path = business === undefined ? '/__sandbox/reset' : `/__sandbox/reset?businessId=${encodeURIComponent(business)}`;
  const envelope = await adminOk(conn, 'POST', path, {});
  const deleted = envelope.body.deleted as Record<string, number>;
  const counts = Object.entries(deleted)
    .map(([table, n]) => `${n} ${table.replace(/_/g, ' ')}`)
    .join(', ');
  if (ui.options.json) ui.json(business === undefined ? { reset: true, deleted } : { reset: true, businessId: business, deleted });
  else ui.line(business === undefined ? `Sandbox reset: ${counts} deleted.` : `Business ${business} reset: ${counts} deleted; other businesses unchanged.`);
  return deleted;
}

export const resetCommand: Run<typeof spec> = (_args, flags, ctx) => runReset(ctx.admin, ctx.ui, flags);
