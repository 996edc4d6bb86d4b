/**
 * The provider's own addresses (docs/drop-in.md, "The provider's addresses", with the evidence for each):
 * the hosts the sandbox answers as, in proxy mode and in hosts mode, and the only names paylink's local
 * certificate authority may sign for besides `localhost`.
 */

/** What a provider host served. */
export type ProviderHostRole = 'api-staging' | 'api-live' | 'checkout-staging' | 'cdn';

export interface ProviderHost {
  name: string;
  role: ProviderHostRole;
}

/** Every provider host, once. */
export const PROVIDER_HOSTS: readonly ProviderHost[] = [
  { name: 'stagconnect.acehubpaymentservices.com', role: 'api-staging' },
  { name: 'connect.acehubpaymentservices.com', role: 'api-live' },
  { name: 'stag.checkout-web.dta.payvision.app', role: 'checkout-staging' },
  { name: 'cdn.payvision.com', role: 'cdn' },
];

/** The staging API's base URL, as the SDKs default to it. */
export const PROVIDER_STAGING_API = 'https://stagconnect.acehubpaymentservices.com';

/** The path of the browser library on the provider's CDN (the library's README). */
export const PROVIDER_LIBRARY_PATH = '/checkout/1.0.2/checkout-library.js';

/** The names the local authority is constrained to: the provider hosts and `localhost`. */
export const AUTHORITY_NAMES: readonly string[] = [...PROVIDER_HOSTS.map((h) => h.name), 'localhost'];

/** A Host header or CONNECT target's name: lower case, no port, no trailing dot; undefined when unreadable. */
export function hostNameOf(host: string): string | undefined {
  let h = host.trim().toLowerCase();
  if (h === '') return undefined;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? undefined : h.slice(0, end + 1);
  }
  const colon = h.lastIndexOf(':');
  if (colon >= 0 && h.indexOf(':') === colon) h = h.slice(0, colon);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h === '' ? undefined : h;
}

/** The provider host `host` (a name, or a Host header with a port) names, if any. */
export function providerHost(host: string | undefined): ProviderHost | undefined {
  if (host === undefined) return undefined;
  const name = hostNameOf(host);
  return name === undefined ? undefined : PROVIDER_HOSTS.find((h) => h.name === name);
}

const STAGING_API_NAME = PROVIDER_HOSTS.find((h) => h.role === 'api-staging')!.name;
const STAGING_PAGES_NAME = PROVIDER_HOSTS.find((h) => h.role === 'checkout-staging')!.name;

/**
 * The provider's own address of a payment-link page when `baseUrl` is its staging API (the portal's
 * examples answer `https://stag.checkout-web.dta.payvision.app/paymentlinks/{linkId}`); undefined for
 * every other base URL, whose pages keep the sandbox's path form.
 */
export function providerPageUrl(baseUrl: string, kind: 'link' | 'checkout', id: string): string | undefined {
  // Every link answer asks: a base URL that does not name the staging API is told apart without a regex.
  if (kind !== 'link' || !baseUrl.toLowerCase().includes(STAGING_API_NAME)) return undefined;
  const match = /^(https?):\/\/([^/:]+)(:\d+)?$/i.exec(baseUrl);
  if (match === null || match[2]!.toLowerCase() !== STAGING_API_NAME) return undefined;
  return `${match[1]}://${STAGING_PAGES_NAME}${match[3] ?? ''}/paymentlinks/${encodeURIComponent(id)}`;
}
