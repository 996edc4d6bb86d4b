/**
 * paylink's local certificate authority (docs/drop-in.md, "The authority"): made once per user, outside any
 * project, in `$XDG_CONFIG_HOME/paylink/ca` (else `~/.config/paylink/ca`): `ca.pem` (the certificate users
 * trust) and `ca-key.pem` (mode 0600 in a 0700 folder, read by the sandbox only, never logged, served or
 * written anywhere else). Its certificate is name-constrained to the provider's hosts, `localhost` and
 * loopback addresses, so a leaked key cannot impersonate any other site.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { homedir, hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { AUTHORITY_NAMES } from '../domain/provider-hosts.js';
import { createAuthority, issueLeaf, type Authority } from './x509.js';

/** The authority's files. */
export interface AuthorityFiles {
  dir: string;
  cert: string;
  key: string;
}

/** Where this user's authority lives, from the environment (`XDG_CONFIG_HOME`, `HOME`). */
export function authorityFiles(env: NodeJS.ProcessEnv = process.env): AuthorityFiles {
  const config =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== ''
      ? env.XDG_CONFIG_HOME
      : join(env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir(), '.config');
  const dir = join(config, 'paylink', 'ca');
  return { dir, cert: join(dir, 'ca.pem'), key: join(dir, 'ca-key.pem') };
}

/** The loopback ranges the authority also permits. */
const LOOPBACK_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['127.0.0.0', '255.0.0.0'],
  ['::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
];

/** A loaded authority, with where its certificate is. */
export interface LocalAuthority extends Authority {
  files: AuthorityFiles;
  /** Whether this call made it. */
  created: boolean;
}

/** Loads this user's authority, making it first when there is none. */
export function loadAuthority(files: AuthorityFiles = authorityFiles()): LocalAuthority {
  try {
    const cert = readFileSync(files.cert, 'utf8');
    const key = createPrivateKey(readFileSync(files.key, 'utf8'));
    new X509Certificate(cert);
    return { cert, key, files, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(
        `paylink's local certificate authority in ${files.dir} cannot be read (${(error as Error).message}); remove that folder to make a new one.`,
        { cause: error },
      );
  }
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  chmodSync(files.dir, 0o700);
  let who = 'user';
  try {
    who = userInfo().username;
  } catch {
    // no passwd entry (a container's arbitrary uid): the generic name
  }
  const made = createAuthority(`paylink local authority (${who}@${hostname()})`, { dns: AUTHORITY_NAMES, ip: LOOPBACK_RANGES });
  // Key first, each written beside and renamed in, so a half-made pair is never read.
  const keyTemp = `${files.key}.${process.pid}.tmp`;
  writeFileSync(keyTemp, made.key.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
  renameSync(keyTemp, files.key);
  const certTemp = `${files.cert}.${process.pid}.tmp`;
  writeFileSync(certTemp, made.cert, { mode: 0o644 });
  renameSync(certTemp, files.cert);
  return { ...made, files, created: true };
}

/** The names a sandbox's certificate carries: the authority's names, loopback addresses and the listen host. */
export function serverNames(listenHost: string): string[] {
  return [...AUTHORITY_NAMES, '127.0.0.1', '::1', listenHost];
}

/** A server certificate from the authority for the provider hosts, localhost and loopback; the chain includes the authority. */
export function serverCertificate(authority: Authority, listenHost = '127.0.0.1'): { cert: string; key: string } {
  const leaf = issueLeaf(
    authority,
    serverNames(listenHost).filter((n) => n === 'localhost' || AUTHORITY_NAMES.includes(n) || /^127\.|^::1$/.test(n)),
  );
  return { cert: leaf.cert + authority.cert, key: leaf.key };
}

/** The base64 SHA-256 of a certificate's public key (Chromium's `--ignore-certificate-errors-spki-list`). */
export function spkiPin(certPem: string): string {
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}
