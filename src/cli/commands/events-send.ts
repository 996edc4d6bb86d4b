/**
 * `paylink events send --type Transaction.Update --payload payload.json [--to URL | --business B]`: an
 * arbitrary payload signed and delivered exactly as a real event, through the sandbox's outbox
 * (`POST /__sandbox/events/send`, docs/webhooks.md): for a handler tested against a payload no scenario makes.
 */
import type { Options, Run } from '../command-spec.js';
import type { eventsSend as spec } from './events.spec.js';
import { readFileSync } from 'node:fs';
import { adminOk, type AdminConnection } from '../client.js';
import { UsageError } from '../errors.js';
import { parseHttpUrl } from '../options.js';
import type { Ui } from '../ui.js';
import { parseEventTypes, type EventEntry } from './webhooks.js';

export type EventsSendFlags = Options<typeof spec>;

/** The request body of `POST /__sandbox/events/send` for the flags; `read` reads the payload file (`-`: stdin). */
export function sendRequestOf(
  flags: EventsSendFlags,
  defaultBusiness: string,
  read: (file: string) => string = (file) => readFileSync(file === '-' ? 0 : file, 'utf8'),
): Record<string, unknown> {
  if (flags.type === undefined) throw new UsageError('--type is required: Transaction.Create or Transaction.Update.');
  const type = parseEventTypes([flags.type], '--type')?.[0];
  if (type === undefined) throw new UsageError('--type is required: Transaction.Create or Transaction.Update.');
  if (flags.payload === undefined)
    throw new UsageError("--payload is required: a JSON file with the event's Payload (a payment envelope), or - for standard input.");
  if (flags.to !== undefined && flags.business !== undefined) throw new UsageError('Give --to (one URL) or --business (its endpoints), not both.');
  let text: string;
  try {
    text = read(flags.payload);
  } catch (error) {
    throw new UsageError(`--payload ${flags.payload}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--payload ${flags.payload}: not JSON (${(error as Error).message}).`);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw new UsageError(`--payload ${flags.payload}: give a JSON object, such as {"result": 0, "description": "Ok", "header": {...}, "body": {...}}.`);
  return {
    type,
    payload,
    ...(flags.to !== undefined ? { url: parseHttpUrl(flags.to, '--to') } : { businessId: flags.business ?? defaultBusiness }),
  };
}

/** `paylink events send`: prints the event made and where it goes; `paylink events show <id>` tells how it went. */
export async function eventsSend(
  conn: AdminConnection,
  ui: Ui,
  flags: EventsSendFlags,
  defaultBusiness: string,
): Promise<EventEntry & { deliveriesQueued: number[] }> {
  const answer = await adminOk<{ body: { event: EventEntry; deliveries: number[] } }>(
    conn,
    'POST',
    '/__sandbox/events/send',
    sendRequestOf(flags, defaultBusiness),
  );
  const result = { ...answer.body.event, deliveriesQueued: answer.body.deliveries };
  if (ui.options.json) {
    ui.json(result);
    return result;
  }
  ui.heading(`${result.type} ${result.id} sent`);
  for (const d of result.deliveries) ui.field(d.kind === 'notify' ? 'To' : `Hook ${d.hookId}`, d.url);
  ui.info(`Signed and queued like any event: \`paylink events show ${result.id}\` shows every attempt.`);
  return result;
}

/** `paylink events send`: to `--business`, else the business of `--business-id`. */
export const eventsSendCommand: Run<typeof spec> = (_args, flags, ctx) => eventsSend(ctx.admin, ctx.ui, flags, ctx.connection.businessId);
