/**
 * Whether a webhook delivery would reach the sandbox itself (docs/webhooks.md, "Security"): its admin API
 * trusts loopback when it has no token, so a `notifyUrl` of `http://127.0.0.1:<port>/__sandbox/reset` would
 * otherwise wipe every business, and an endpoint at its own `/__sandbox/events/<id>/resend` would loop.
 * Pure rules over addresses already resolved (the worker resolves names and connects to the address it
 * checked, so a name cannot change between the check and the connection).
 */

/** The header every webhook delivery (and every `paylink listen` forward) carries; the sandbox refuses requests with it. */
export const DELIVERY_MARK_HEADER = 'x-paylink-delivery';

/** What the sandbox knows about where it is reached. */
export interface OwnAddress {
  /** The port it listens on. */
  port: number;
  /** Origins it is reached by from elsewhere: its public URL (tunnel, reverse proxy), its listening URL. */
  origins: readonly string[];
  /** This machine's interface addresses (`os.networkInterfaces()`), any form. */
  interfaces: readonly string[];
}

/**
 * An IP address in one canonical form: lower case, no brackets, no zone, an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`) as its IPv4 address.
 */
export function canonicalAddress(address: string): string {
  let a = address.trim().toLowerCase();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(.+)$/.exec(a);
  if (mapped !== null && a.includes(':')) {
    const rest = mapped[1]!;
    if (/^\d{1,3}(\.\d{1,3}){3}$/.test(rest)) return rest;
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
    if (hex !== null) {
      const high = parseInt(hex[1]!, 16);
      const low = parseInt(hex[2]!, 16);
      return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
    }
  }
  return a;
}

/** Loopback (`127.0.0.0/8`, `::1`) or unspecified (`0.0.0.0`, `::`, which a connection takes as this machine). */
export function isLoopbackOrUnspecified(address: string): boolean {
  const a = canonicalAddress(address);
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(a)) return a.startsWith('127.') || a === '0.0.0.0';
  const groups = expandIPv6(a);
  if (groups === undefined) return false;
  return groups.slice(0, 7).every((g) => g === 0) && (groups[7] === 1 || groups[7] === 0);
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function expandIPv6(a: string): number[] | undefined {
  if (!a.includes(':') || !/^[0-9a-f:]+$/.test(a)) return undefined;
  const halves = a.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : halves[0]!.split(':');
  const tail = halves.length === 2 && halves[1] !== '' ? halves[1]!.split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** The port a URL connects to: its own, else its scheme's. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Why a delivery to `url`, whose host resolved to `addresses`, would reach this sandbox; undefined when it
 * would not. The sandbox is reached by its public or listening origin whatever the addresses, and by any
 * address of this machine (loopback, unspecified, an interface's) on its port, however the URL spells it
 * (decimal `2130706433`, hex `0x7f000001` and `127.1` are `127.0.0.1` once parsed; `[::ffff:127.0.0.1]`,
 * `[::1]`, `localhost`, `0.0.0.0`).
 */
export function ownTargetReason(url: URL, addresses: readonly string[], own: OwnAddress): string | undefined {
  const port = portOf(url);
  for (const origin of own.origins) {
    let o: URL;
    try {
      o = new URL(origin);
    } catch {
      continue;
    }
    if (o.hostname.toLowerCase() === url.hostname.toLowerCase() && portOf(o) === port) return `${o.origin} is this sandbox`;
  }
  if (port !== own.port) return undefined;
  const mine = new Set(own.interfaces.map(canonicalAddress));
  for (const address of addresses) {
    const a = canonicalAddress(address);
    if (isLoopbackOrUnspecified(a) || mine.has(a)) return `${address} port ${port} is this sandbox`;
  }
  return undefined;
}
