/**
 * A payment link's `duration` (docs/api.md, Validation): `P<n>D` (1 to 365 days), or `PT<n>H` / `PT<n>M`
 * for testing expiry, upper case. Read from a request by http/fields.ts and from a stored link by the
 * dashboard's copy (services/links.ts).
 */
const DAY_MS = 86_400_000;

/** The default duration: one day. */
export const DEFAULT_LINK_DURATION = { text: 'P1D', ms: DAY_MS } as const;

/** The length of an upper-case duration in ms, or undefined when it is not one a link may have. */
export function linkDurationMs(text: string): number | undefined {
  const match = /^P(?:(\d{1,3})D|T(\d{1,4})H|T(\d{1,6})M)$/.exec(text);
  if (!match) return undefined;
  const ms = match[1] !== undefined ? Number(match[1]) * DAY_MS : match[2] !== undefined ? Number(match[2]) * 3_600_000 : Number(match[3]) * 60_000;
  return ms <= 0 || ms > 365 * DAY_MS ? undefined : ms;
}
