/**
 * The stored shapes of webhook endpoints, events, deliveries and attempts: what store/events.ts keeps and
 * what the admin API and the dashboard show (they read them through services, never from store/).
 */
import type { EventType, WebhookFaults } from './events.js';

/** A webhook endpoint of a business (table `webhook_endpoints`, migration 6). */
export interface EndpointRecord {
  hookId: string;
  businessId: string;
  url: string;
  /** The endpoint's own secret; absent: the sandbox's webhook secret. */
  secret?: string | undefined;
  /** The event types it receives; absent: all. */
  events?: EventType[] | undefined;
  faults?: WebhookFaults | undefined;
  createdAt: number;
}

/** A stored event: the body's exact text and what it is about. */
export interface EventRow {
  seq: number;
  id: string;
  type: EventType;
  businessId: string;
  paymentId: string;
  createdAt: number;
  body: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'rejected' | 'finding' | 'cancelled';

/** What a delivery carries beyond its columns. */
export interface DeliveryData {
  /** `endpoint` (a registered hook), `notify` (the payment's notifyUrl). */
  kind: 'endpoint' | 'notify';
  /** The endpoint's own secret when it has one, else the sandbox's is used at sending time. */
  secret?: string | undefined;
  faults?: WebhookFaults | undefined;
  /** Why the delivery ended the way it did (last error, the finding). */
  note?: string | undefined;
}

export interface DeliveryRow {
  id: number;
  eventSeq: number;
  /** Ordering scope: `hook:<hookId>` or `url:<url>`. */
  target: string;
  orderKey: string;
  hookId: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  nextAt: number;
  createdAt: number;
  data: DeliveryData;
}

/** One HTTP attempt of a delivery. */
export interface AttemptRecord {
  deliveryId: number;
  /** 1 for the first attempt. */
  n: number;
  /** Epoch ms (wall clock). */
  at: number;
  /** HTTP status, or null for no answer (refused, timeout). */
  status: number | null;
  error?: string | undefined;
  latencyMs: number;
  /** The first KB of the answer's body. */
  response?: string | undefined;
  /** The fault this attempt applied (`duplicate`, `bad-signature`, `tampered-body`). */
  fault?: string | undefined;
  /** Set when a merchant accepted a delivery it had to refuse. */
  finding?: string | undefined;
}
