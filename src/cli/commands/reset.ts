/**
 * `paylink reset`: empties the sandbox (links, checkouts, payments, tokens, the request log) through
 * `POST /__sandbox/reset`. Asks first on a terminal; scripts pass `--yes`.
 */
import { adminOk, type AdminConnection } from '../client.js';
import type { Ui } from '../ui.js';

export interface ResetOptions {
  /** Skip the question. */
  yes?: boolean | undefined;
}

/**
 * Resets the sandbox; resolves with rows deleted per table, or undefined when the person said no. The
 * question goes through the UI's prompter: only on a terminal outside CI, else `--yes` is required.
 */
export async function runReset(conn: AdminConnection, ui: Ui, options: ResetOptions = {}): Promise<Record<string, number> | undefined> {
  const ok = await ui.need(options.yes ? true : undefined, '--yes', (prompter) =>
    prompter.select({
      message: `Delete every link, checkout, payment, token and logged request of the sandbox at ${conn.baseUrl}?`,
      choices: [
        { name: 'No, keep everything', value: false },
        { name: 'Yes, delete everything', value: true },
      ],
      default: false,
    }),
  );
  if (!ok) {
    ui.info('Nothing was deleted.');
    return undefined;
  }
  const envelope = await adminOk(conn, 'POST', '/__sandbox/reset', {});
  const deleted = envelope.body.deleted as Record<string, number>;
  if (ui.options.json) ui.json({ reset: true, deleted });
  else ui.line(`Sandbox reset: ${Object.entries(deleted).map(([table, n]) => `${n} ${table.replace(/_/g, ' ')}`).join(', ')} deleted.`);
  return deleted;
}
