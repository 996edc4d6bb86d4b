/**
 * `POST /__sandbox/events/send` (`paylink events send`, docs/webhooks.md): an arbitrary payload signed and
 * delivered exactly as a real event, through the same outbox, to one URL or to a business's endpoints.
 */
import { EVENT_TYPES, type EventType } from '../domain/events.js';
import { envelope } from '../http/envelope.js';
import { isObject, optionalString, requireString, returnUrl } from '../http/fields.js';
import { invalidValue, RESULTS } from '../errors.js';
import type { Route, RouteRequest } from '../http/router.js';
import { eventView } from './webhooks.js';

async function sendEvent(req: RouteRequest) {
  const { sandbox } = req;
  const json = await req.json();
  const typeText = requireString(json.type, 'type', { max: 64 });
  const type = EVENT_TYPES.find((t) => t.toLowerCase() === typeText.toLowerCase()) as EventType | undefined;
  if (type === undefined) throw invalidValue('type', `Use ${EVENT_TYPES.join(' or ')}.`);
  if (!isObject(json.payload))
    throw invalidValue('payload', 'Give the event\'s Payload as a JSON object (a payment envelope: {"result", "description", "header", "body"}).');
  const url = json.url === undefined || json.url === null ? undefined : returnUrl(json.url, 'url');
  const businessId = optionalString(json.businessId, 'businessId', { max: 100 }) ?? (url !== undefined ? 'custom' : undefined);
  if (businessId === undefined) throw invalidValue('businessId', 'Give url (one receiver) or businessId (its webhook endpoints).');
  const sent = await sandbox.services.webhooks.sendCustom({ type, payload: json.payload as Record<string, unknown>, businessId, url });
  return envelope(sandbox, RESULTS.ok, { event: { ...eventView(sandbox, sent.event), body: sent.event.body }, deliveries: sent.deliveries });
}

export const customEventRoutes: Route[] = [{ route: 'admin.events.send', handler: sendEvent }];
