/**
 * What shares a webhook destination's delivery slots (docs/reliability.md, "Webhooks: fairness at any
 * backlog"): the URL's scheme, host and port, so a hanging receiver holds only its own share however many
 * of its URLs (paths, query strings) deliveries go to.
 */
export function destinationOf(url: string): string {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return url;
  }
}
