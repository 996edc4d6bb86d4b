/**
 * View models of the dashboard pages. Route handlers (`src/sandbox/web/dashboard.ts`) build them from
 * records; the templates here only render them, escaping every value.
 */

/** A table cell: text, optionally a link, a state badge or monospace. */
export type Cell =
  | string
  | number
  | { text: string; href?: string | undefined; state?: string | undefined; mono?: boolean | undefined; title?: string | undefined };

export interface TableView {
  id: string;
  title: string;
  columns: string[];
  rows: Cell[][];
  /** Shown when there are no rows. */
  empty: string;
  /** "All links" and the like. */
  more?: { href: string; label: string } | undefined;
  pager?: { page: number; pages: number; total: number; prevHref?: string | undefined; nextHref?: string | undefined } | undefined;
}

export interface ClockPanel {
  now: string;
  offset: string;
  frozen: boolean;
  /** Where the forms post to, and the page to come back to. */
  action: string;
  back: string;
}

export type ActionView =
  /** A link opened in a new tab; `id` is its test id (`open-hosted` when not given). */
  | { kind: 'open'; label: string; href: string; id?: string }
  | { kind: 'pay'; label: string; action: string; outcomes: readonly string[]; selected: string }
  | { kind: 'post'; label: string; action: string; id: string };

export interface RequestView {
  seq: number;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  businessId: string;
  request?: string | undefined;
  response?: string | undefined;
  /** What an API fault did to the request (docs/faults.md), when one fired. */
  fault?: string | undefined;
}

export interface RequestsPanel {
  title: string;
  rows: RequestView[];
  empty: string;
  more?: { href: string; label: string } | undefined;
  filters?: { path: string; status: string; businessId: string; action: string } | undefined;
  pager?: { olderHref?: string | undefined; newerHref?: string | undefined } | undefined;
}

export interface DashboardPage {
  title: string;
  /** Navigation highlight. */
  section: 'overview' | 'links' | 'checkouts' | 'payments' | 'tokens' | 'requests' | 'webhooks' | 'faults' | 'advisor' | 'snapshots';
  clock: ClockPanel;
  /** A one-line notice (after paying, resetting...). */
  notice?: string | undefined;
}

export interface OverviewView extends DashboardPage {
  tables: TableView[];
  requests: RequestsPanel;
}

export interface ListView extends DashboardPage {
  table: TableView;
  businessFilter: { value: string; action: string };
}

export interface DetailView extends DashboardPage {
  kind: 'link' | 'checkout' | 'payment' | 'token';
  id: string;
  state?: string | undefined;
  fields: Array<[string, Cell]>;
  actions: ActionView[];
  tables: TableView[];
  requests: RequestsPanel;
}

export interface RequestLogView extends DashboardPage {
  requests: RequestsPanel;
}

/** The Webhooks page: settings, endpoints, findings first, then the newest events. */
export interface WebhooksView extends DashboardPage {
  settings: Array<[string, string]>;
  /** Deliveries a merchant endpoint accepted when it had to refuse them. */
  findings: TableView;
  endpoints: TableView;
  events: TableView;
}

/** One event: its fields, each delivery with every attempt, and its exact body. */
export interface EventDetailView extends DashboardPage {
  id: string;
  fields: Array<[string, Cell]>;
  findings: string[];
  deliveries: TableView[];
  body: string;
}

/** One API fault rule on the Faults page. */
export interface FaultRow {
  id: string;
  kind: string;
  matches: string;
  does: string;
  probability: number;
  /** `2 of 3 left`, `spent`, or `no limit`. */
  times: string;
  fired: number;
  /** Where the remove button posts. */
  removeAction: string;
}

/** The Faults page: the rules, each with a remove button, and how to add one. */
export interface FaultsView extends DashboardPage {
  rules: FaultRow[];
  clearAction: string;
}
