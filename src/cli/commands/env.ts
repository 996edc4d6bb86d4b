/**
 * `paylink env`: the environment that sends a process through this folder's sandbox proxy
 * (`paylink sandbox --proxy <port>`), so code with the provider's hosts hard-coded runs against the sandbox
 * unchanged: `eval "$(paylink env)"` (docs/drop-in.md). It writes, beside paylink's local authority, a CA
 * bundle holding the system's authorities plus paylink's (curl, OpenSSL, Python) and a PHP ini folder
 * naming that bundle (Debian's PHP curl reads `curl.cainfo` / `openssl.cafile` from its ini files and
 * ignores `CURL_CA_BUNDLE`); Node adds paylink's authority from `NODE_EXTRA_CA_CERTS`. It also names the
 * Chromium options (proxy server, the authority's public-key pin) for a browser test. The authority's
 * private key is never read here.
 */
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import type { env as spec } from './env.spec.js';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { discoverSandbox, sandboxOf, type FoundEntry } from '../discovery.js';
import { UsageError } from '../errors.js';

/** Where Linux distributions and macOS keep the system's CA bundle, in the order tried. */
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/ca-bundle.pem', '/etc/ssl/cert.pem'];

/** Loopback, which the proxy never serves: shops and tools on this machine are reached directly. */
const NO_PROXY = 'localhost,127.0.0.1,::1';

/** What `paylink env --json` prints. */
export interface DropInEnv {
  /** The proxy of this folder's sandbox. */
  proxy: string;
  /** paylink's local authority (its certificate; the key stays where the sandbox keeps it). */
  authority: string;
  /** The system's authorities plus paylink's. */
  bundle: string;
  /** The folder PHP_INI_SCAN_DIR adds, holding `paylink.ini`. */
  phpIniDir: string;
  /** The variables to export, in order. */
  variables: Record<string, string>;
  chromium: {
    proxyServer: string;
    /** base64 SHA-256 of the authority's SubjectPublicKeyInfo. */
    spkiPin: string;
    /** The command-line switches (Playwright: `launch({ args })`). */
    args: string[];
  };
}

/** The base64 SHA-256 of a certificate's public key, as Chromium's `--ignore-certificate-errors-spki-list` takes it. */
export function spkiPinOf(certPem: string): string {
  return createHash('sha256')
    .update(new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
}

function systemBundle(): string {
  for (const file of SYSTEM_BUNDLES) {
    try {
      const text = readFileSync(file, 'utf8');
      if (text.includes('BEGIN CERTIFICATE')) return text.endsWith('\n') ? text : `${text}\n`;
    } catch {
      // not this system's place
    }
  }
  // None found: Node's own copy of Mozilla's list.
  return `${rootCertificates.join('\n')}\n`;
}

function writeWhole(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o644 });
  renameSync(temporary, path);
}

/** The proxy environment for a sandbox entry with a proxy; writes the bundle and PHP ini it names. */
export function dropInEnv(entry: Pick<FoundEntry, 'proxy' | 'authority' | 'url'>, env: NodeJS.ProcessEnv = process.env): DropInEnv {
  if (entry.proxy === undefined || entry.authority === undefined) {
    throw new UsageError(`The sandbox of this folder (${entry.url}) has no proxy: start it with \`paylink sandbox --proxy 8418\` (docs/drop-in.md).`);
  }
  let authorityPem: string;
  try {
    authorityPem = readFileSync(entry.authority, 'utf8');
    new X509Certificate(authorityPem);
  } catch (error) {
    throw new UsageError(
      `paylink's local authority ${entry.authority} cannot be read (${(error as Error).message}): restart the sandbox with --proxy to make it again.`,
    );
  }
  const folder = join(dirname(dirname(entry.authority)), 'env');
  const bundle = join(folder, 'ca-bundle.pem');
  const phpIniDir = join(folder, 'php');
  writeWhole(bundle, `${systemBundle()}\n# paylink local authority (${entry.authority})\n${authorityPem}`);
  writeWhole(
    join(phpIniDir, 'paylink.ini'),
    `; written by paylink env: trust paylink's local authority besides the system's\ncurl.cainfo=${bundle}\nopenssl.cafile=${bundle}\n`,
  );
  // An empty element keeps PHP's compiled-in scan folder (its extensions), then this one overrides.
  const scan = env.PHP_INI_SCAN_DIR !== undefined && env.PHP_INI_SCAN_DIR !== '' ? `${env.PHP_INI_SCAN_DIR}:${phpIniDir}` : `:${phpIniDir}`;
  const variables: Record<string, string> = {
    https_proxy: entry.proxy,
    HTTPS_PROXY: entry.proxy,
    no_proxy: NO_PROXY,
    NO_PROXY,
    CURL_CA_BUNDLE: bundle,
    SSL_CERT_FILE: bundle,
    REQUESTS_CA_BUNDLE: bundle,
    NODE_EXTRA_CA_CERTS: entry.authority,
    // Node 24 (and 22.21+) honours https_proxy with this; older Node needs a proxy agent (docs/drop-in.md).
    NODE_USE_ENV_PROXY: '1',
    PHP_INI_SCAN_DIR: scan,
  };
  const spkiPin = spkiPinOf(authorityPem);
  return {
    proxy: entry.proxy,
    authority: entry.authority,
    bundle,
    phpIniDir,
    variables,
    chromium: { proxyServer: entry.proxy, spkiPin, args: [`--proxy-server=${entry.proxy}`, `--ignore-certificate-errors-spki-list=${spkiPin}`] },
  };
}

/** A value quoted for POSIX shells. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command: finds this folder's sandbox, prints the lines to eval (or `--json`). */
export async function envCommand(_args: Args<typeof spec>, _flags: Options<typeof spec>, ctx: CommandContext): Promise<DropInEnv> {
  const { ui, env } = ctx;
  const cwd = process.cwd();
  const entry = sandboxOf(await discoverSandbox(cwd), cwd);
  if (entry === undefined)
    throw new UsageError('No sandbox was started from this folder: start one with `paylink sandbox --proxy 8418`, then run `paylink env` here.');
  const result = dropInEnv(entry, env);
  if (ui.options.json) {
    ui.json(result);
    return result;
  }
  ui.line(`# paylink sandbox ${entry.url} as the provider's hosts, through ${result.proxy} (docs/drop-in.md)`);
  ui.line(
    `export ${Object.entries(result.variables)
      .map(([name, value]) => `${name}=${shellQuote(value)}`)
      .join(' ')}`,
  );
  ui.line(`# Chromium / Playwright: ${result.chromium.args.join(' ')}`);
  ui.line(`# undo: unset ${Object.keys(result.variables).join(' ')}`);
  if (!existsSync(result.bundle)) ui.warn(`could not write ${result.bundle}`);
  return result;
}
