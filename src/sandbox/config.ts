/**
 * What a sandbox is configured with (context.ts's Sandbox reads it). Types only, depending on nothing, so the
 * package's public types (index.ts) can name them without pulling in the sandbox's internals.
 */

/** username -> password and the business ids those credentials own. */
export interface Credential {
  username: string;
  password: string;
  businessIds: string[];
}

export interface SandboxConfig {
  /** SQLite file, or `:memory:`. */
  db: string;
  /** Base URL the outside world reaches the sandbox at (tunnel, reverse proxy); overrides the listen URL. */
  publicUrl?: string | undefined;
  /** When set, the API requires HTTP Basic credentials (docs/api.md, "Authentication and isolation"). */
  credentials?: Credential[] | undefined;
  /** When set, `/__sandbox/` and the dashboard require it (non-loopback or public URL). */
  adminToken?: string | undefined;
  /** Seed for reproducible ids and approval codes. */
  seed?: string | undefined;
  /** Log each request to the console. */
  verbose?: boolean | undefined;
  /** The webhook secret; else the one stored in the database, else a new one (docs/webhooks.md). */
  webhookSecret?: string | undefined;
  /** Characters the request log keeps at most (services/request-log.ts; default 32 MiB). */
  requestLogMaxBytes?: number | undefined;
  /** Webhook events kept at least; older settled ones are pruned (services/events.ts; default 100,000). */
  eventsKept?: number | undefined;
  /** Bytes of snapshots kept at most; a save beyond it is refused (store/snapshots.ts; default 2 GiB). */
  snapshotsMaxBytes?: number | undefined;
  /** Host names besides loopback, the bound address and the public URL's that requests may name (http/guards.ts). */
  allowedHosts?: readonly string[] | undefined;
  /** The request header webhook signatures go in (shown by the admin API). */
  webhookHeader?: string | undefined;
  /** Retry schedule of webhook deliveries: `standard`, `fast`, or the waits in milliseconds (docs/webhooks.md). */
  webhookRetry?: 'standard' | 'fast' | readonly number[] | undefined;
  /** Milliseconds a webhook attempt may take before it counts as failed (default 10 s, 2 s with `fast`). */
  webhookTimeoutMs?: number | undefined;
}
