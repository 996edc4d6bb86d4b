/**
 * The few X.509 certificates paylink makes, written as DER by hand (Node signs but has no certificate
 * builder): the local authority (a CA certificate name-constrained to the provider's hosts and loopback)
 * and the leaf certificates it signs. ECDSA P-256 with SHA-256 throughout. docs/drop-in.md, "The authority".
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const TRUE = tlv(0x01, Buffer.from([0xff]));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a! + b!];
  for (const part of rest) {
    const chunk: number[] = [part & 0x7f];
    for (let v = part >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A non-negative INTEGER in DER, from its big-endian bytes. */
export function positiveInteger(bytes: Buffer): Buffer {
  // DER wants the shortest form: leading zero bytes go (a random serial may start with one, and parsers
  // refuse the padded form as "illegal padding"), and one comes back when the high bit would read as negative.
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.subarray(start);
  return tlv(0x02, minimal[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

/** UTCTime (YYMMDDHHMMSSZ) up to 2049, GeneralizedTime after, as RFC 5280 asks. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

/** The bytes of an IPv4 or IPv6 address. */
export function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const parts = (s: string | undefined): string[] => (s ? s.split(':') : []);
  const groups = tail === undefined ? parts(head) : [...parts(head), ...Array<string>(8 - parts(head).length - parts(tail).length).fill('0'), ...parts(tail)];
  return Buffer.concat(groups.map((g) => Buffer.from([(parseInt(g, 16) >> 8) & 0xff, parseInt(g, 16) & 0xff])));
}

function distinguishedName(commonName: string): Buffer {
  return sequence(
    tlv(0x31, sequence(oid('2.5.4.10'), tlv(0x0c, Buffer.from('paylink')))),
    tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))),
  );
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), TRUE, tlv(0x04, value)) : sequence(oid(id), tlv(0x04, value));
}

/** The SHA-1 key identifier of a public key (RFC 5280 4.2.1.2, method 1). */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  // The subjectPublicKey BIT STRING is the SPKI's last element: for P-256, its last 65 bytes.
  return createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
}

const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));

function certificate(fields: {
  serial?: Buffer;
  issuer: Buffer;
  subject: Buffer;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  extensions: Buffer[];
  signer: KeyObject;
}): string {
  const serial = fields.serial ?? randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    positiveInteger(serial),
    ECDSA_SHA256,
    fields.issuer,
    sequence(time(fields.notBefore), time(fields.notAfter)),
    fields.subject,
    fields.publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, sequence(...fields.extensions)),
  );
  const der = sequence(tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), sign('sha256', tbs, fields.signer)));
  return pem('CERTIFICATE', der);
}

function pem(label: string, der: Buffer): string {
  const base64 = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}

/** The names an authority may sign for: DNS names (each with its subdomains, RFC 5280 4.2.1.10) and IP ranges. */
export interface NameConstraints {
  dns: readonly string[];
  /** Address and mask, e.g. `['127.0.0.0', '255.0.0.0']`. */
  ip: ReadonlyArray<readonly [string, string]>;
}

export interface Authority {
  cert: string;
  key: KeyObject;
}

const DAY_MS = 86_400_000;

/** A new certificate authority whose certificate permits only `constraints`. */
export function createAuthority(commonName: string, constraints: NameConstraints, now = new Date(), years = 10): { cert: string; key: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = distinguishedName(commonName);
  const permitted = tlv(
    0xa0,
    ...constraints.dns.map((d) => sequence(tlv(0x82, Buffer.from(d)))),
    ...constraints.ip.map(([address, mask]) => sequence(tlv(0x87, Buffer.concat([ipBytes(address), ipBytes(mask)])))),
  );
  const cert = certificate({
    issuer: name,
    subject: name,
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + years * 365 * DAY_MS),
    publicKey,
    signer: privateKey,
    extensions: [
      extension('2.5.29.19', true, sequence(TRUE, tlv(0x02, Buffer.from([0])))),
      // keyCertSign and cRLSign.
      extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x01, 0x06]))),
      extension('2.5.29.14', false, tlv(0x04, keyIdentifier(publicKey))),
      extension('2.5.29.30', true, sequence(permitted)),
    ],
  });
  return { cert, key: privateKey };
}

/** The subject (DER) and key identifier of an authority's certificate, which its leaves name as issuer. */
function issuerOf(authorityCert: string): { subject: Buffer; keyId: Buffer | undefined } {
  const der = Buffer.from(authorityCert.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  // Certificate -> tbsCertificate -> [version, serial, signature, issuer, validity, subject, ...].
  const elements = children(children(der)[0]!);
  const subject = elements[5]!;
  let keyId: Buffer | undefined;
  const ski = oid('2.5.29.14');
  const at = der.indexOf(ski);
  if (at >= 0) {
    // extnID, then OCTET STRING { OCTET STRING keyId }.
    const outer = at + ski.length;
    keyId = der.subarray(outer + 4, outer + 4 + der[outer + 3]!);
  }
  return { subject, keyId };
}

/** The DER elements directly inside a constructed DER element. */
function children(der: Buffer): Buffer[] {
  const out: Buffer[] = [];
  const [, headerLength, bodyLength] = header(der, 0);
  let offset = headerLength;
  const end = headerLength + bodyLength;
  while (offset < end) {
    const [, h, l] = header(der, offset);
    out.push(der.subarray(offset, offset + h + l));
    offset += h + l;
  }
  return out;
}

function header(der: Buffer, offset: number): [number, number, number] {
  const first = der[offset + 1]!;
  if (first < 0x80) return [der[offset]!, 2, first];
  const count = first & 0x7f;
  let n = 0;
  for (let i = 0; i < count; i++) n = n * 256 + der[offset + 2 + i]!;
  return [der[offset]!, 2 + count, n];
}

/** A server certificate for `names` (host names and IP addresses) signed by `authority`; PEM cert and key. */
export function issueLeaf(authority: Authority, names: readonly string[], now = new Date(), days = 90): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { subject, keyId } = issuerOf(authority.cert);
  const unique = [...new Set(names.filter((n) => n !== '' && n !== '0.0.0.0' && n !== '::'))];
  const altNames = sequence(...unique.map((n) => (isIP(n) ? tlv(0x87, ipBytes(n)) : tlv(0x82, Buffer.from(n)))));
  const cert = certificate({
    issuer: subject,
    subject: distinguishedName('paylink sandbox'),
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + days * DAY_MS),
    publicKey,
    signer: authority.key,
    extensions: [
      extension('2.5.29.19', true, sequence()),
      // digitalSignature.
      extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x07, 0x80]))),
      extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))),
      extension('2.5.29.17', false, altNames),
      ...(keyId !== undefined ? [extension('2.5.29.35', false, sequence(tlv(0x80, keyId)))] : []),
    ],
  });
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}
