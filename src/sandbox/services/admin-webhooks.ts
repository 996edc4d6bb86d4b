/**
 * Webhook endpoints, events and deliveries as the admin API and the dashboard ask for them: endpoint
 * changes and resends each in one write (the delivery worker sends after the commit), and reads of what
 * is committed only (an event past the committed sequence is not found yet).
 */
import type { EventRow } from '../domain/webhook-records.js';

import type { Deps } from './deps.js';
import type { EventService } from './events.js';

/** What the webhook administration uses: the write queue, the stored events and deliveries, the event service. */
export type WebhookAdminDeps = Pick<Deps, 'store' | 'eventStore' | 'events'>;

export function addEndpoint(deps: WebhookAdminDeps, input: Parameters<EventService['addEndpoint']>[0]) {
  return deps.store.write(() => deps.events.addEndpoint(input));
}

export function removeEndpoint(deps: WebhookAdminDeps, hookId: string): Promise<boolean> {
  return deps.store.write(() => deps.events.removeEndpoint(hookId));
}

/** Sends a committed event again (to one endpoint, or to all it went to); returns the new deliveries' ids. */
export function resend(deps: WebhookAdminDeps, event: EventRow, hookId?: string): Promise<number[]> {
  return deps.store.write(() => deps.events.resend(event, hookId));
}

/** Signs and queues an arbitrary event (`paylink events send`) in one write; returns it and its deliveries' ids. */
export function sendCustomEvent(deps: WebhookAdminDeps, input: Parameters<EventService['custom']>[0]) {
  return deps.store.write(() => deps.events.custom(input));
}

/** Where a follower starting at `time` begins: the last committed event created before it (never past what is committed). */
export function seqBefore(deps: WebhookAdminDeps, time: number): number {
  return Math.min(deps.eventStore.seqBeforeTime(time) ?? deps.events.committedSeq, deps.events.committedSeq);
}

/** A committed event by id, or undefined (unknown, or not committed yet). */
export function committedEvent(deps: WebhookAdminDeps, id: string): EventRow | undefined {
  const event = deps.eventStore.event(id);
  return event === undefined || event.seq > deps.events.committedSeq ? undefined : event;
}
