/**
 * Where the CLI's connection settings come from: flags, then environment, then `paylink.config.json` (or
 * the `paylink` key of `package.json`) in the working directory, then defaults (docs/cli.md,
 * "Configuration file").
 */
import type { OptionsOf, PROGRAM_FLAGS } from './flags.js';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from './errors.js';
import { discoverSandboxSync, isFolderOrAbove, sandboxOf, startedFrom, type Discovery } from './discovery.js';
import { DEFAULT_BUSINESS_ID, defaultBaseUrl, LOCAL_TIMEOUT_SECONDS, localSandboxUrl, PORT_ENV, REMOTE_TIMEOUT_SECONDS, SANDBOX_DEFAULTS } from './defaults.js';

export { DEFAULT_BUSINESS_ID, DEFAULT_DETERMINISTIC_SEED, defaultBaseUrl, SANDBOX_DEFAULTS } from './defaults.js';

/** Name of the optional config file, read from the working directory. */
export const CONFIG_FILE = 'paylink.config.json';

/** Global options as commander hands them over. */
/**
 * The program's flags as parsed (flags.ts `PROGRAM_FLAGS`): `timeout` as typed (`--timeout <seconds>`), `ca`
 * a PEM file to trust for https. Each may be missing for a caller that is not the CLI.
 */
export type GlobalFlags = Partial<OptionsOf<typeof PROGRAM_FLAGS>>;

/** The resolved connection settings. */
export interface Connection {
  /** API base URL without a trailing slash. @default "http://127.0.0.1:8417", or the port of `PAYLINK_PORT` */
  baseUrl: string;
  /** @default "sandbox-business" */
  businessId: string;
  username?: string | undefined;
  password?: string | undefined;
  /**
   * Milliseconds before a request without an answer is given up (`--timeout` / `PAYLINK_TIMEOUT`, seconds).
   * @default 10000 for a loopback base URL, 30000 otherwise
   */
  timeoutMs?: number | undefined;
  /**
   * A certificate or CA (PEM text) trusted for https besides the system's: `--ca` / `PAYLINK_CA` (a file),
   * else the certificate of the `--https` sandbox found in this folder.
   */
  ca?: string | undefined;
  /** The file `ca` was read from. */
  caFile?: string | undefined;
  /**
   * Where each setting came from: `--base-url` (a flag), `PAYLINK_BASE_URL` (the environment),
   * `paylink.config.json`, `package.json "paylink"`, the sandbox's entry file, `PAYLINK_PORT` (the default
   * URL on that port), or `default` (`paylink config`).
   */
  sources?: Record<'baseUrl' | 'businessId' | 'username' | 'password' | 'timeout' | 'ca', string> | undefined;
  /** The admin token recorded in the entry of the sandbox found for this folder (its owner's to use). */
  entryAdminToken?: string | undefined;
  /**
   * What the user should know about which sandbox this is, printed on stderr before the command runs:
   * discovery entries ignored as untrusted, or the default URL taken while nothing was started here.
   */
  notes?: string[] | undefined;
}

/** The keys a config file may hold: the connection's, and `paylink sandbox`'s webhook secret. */
export const CONFIG_KEYS = ['baseUrl', 'businessId', 'username', 'password', 'webhookSecret'] as const;

interface ConfigFile {
  baseUrl?: string;
  businessId?: string;
  username?: string;
  password?: string;
  webhookSecret?: string;
  /** Which file: `paylink.config.json` or `package.json "paylink"`; undefined when none. */
  name?: string;
}

/** `paylink.config.json`, else the `paylink` key of `package.json`, in the working directory. */
export function readConfigFile(cwd: string): ConfigFile {
  const path = join(cwd, CONFIG_FILE);
  if (existsSync(path)) return checkConfig(parseJson(path, CONFIG_FILE), CONFIG_FILE);
  const pkgPath = join(cwd, 'package.json');
  if (!existsSync(pkgPath)) return {};
  // A broken package.json is not the CLI's business unless it holds our key; then say so.
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  } catch {
    return {};
  }
  const section = (pkg as Record<string, unknown> | null)?.paylink;
  return section === undefined ? {} : checkConfig(section, 'package.json "paylink"');
}

function parseJson(path: string, name: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${name}: not valid JSON (${(error as Error).message}). Fix or remove it.`);
  }
}

function checkConfig(parsed: unknown, name: string): ConfigFile {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`${name}: expected a JSON object with ${CONFIG_KEYS.join(', ')}.`);
  // A typo (`bizId`) silently ignored would send every command to the default business: refuse it.
  const unknown = Object.keys(parsed).filter((key) => !(CONFIG_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    const named = unknown.map((key) => {
      const near = nearestKey(key);
      return `"${key}"${near ? ` (did you mean "${near}"?)` : ''}`;
    });
    throw new UsageError(`${name}: unknown key${unknown.length === 1 ? '' : 's'} ${named.join(', ')}. Known keys: ${CONFIG_KEYS.join(', ')}.`);
  }
  const config: ConfigFile = { name };
  for (const key of CONFIG_KEYS) {
    const value = (parsed as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new UsageError(`${name}: "${key}" must be a string.`);
    config[key] = value;
  }
  return config;
}

/**
 * The known key a typo most likely meant: the most of its letters in order (`bizId` keeps b, i, I, d of
 * `businessId`), then the fewest edits; none when under 60% of the letters match.
 */
function nearestKey(typed: string): string | undefined {
  const a = typed.toLowerCase();
  let best: { key: string; common: number; edits: number } | undefined;
  for (const key of CONFIG_KEYS) {
    const b = key.toLowerCase();
    const common = commonSubsequence(a, b);
    const edits = editDistance(a, b);
    if (!best || common > best.common || (common === best.common && edits < best.edits)) best = { key, common, edits };
  }
  return best && best.common / a.length >= 0.6 ? best.key : undefined;
}

function commonSubsequence(a: string, b: string): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 0; i < a.length; i++) {
    let diagonal = 0;
    for (let j = 0; j < b.length; j++) {
      const above = row[j + 1]!;
      row[j + 1] = a[i] === b[j] ? diagonal + 1 : Math.max(above, row[j]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

function normalizeBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: expected an absolute http(s) URL such as ${localSandboxUrl(SANDBOX_DEFAULTS.port)}, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${source}: expected an http(s) URL, got "${value}".`);
  return url.href.replace(/\/+$/, '');
}

/**
 * Resolves the connection: flags > environment > config file > the sandbox started in this folder
 * (`discovery.ts`; `discovery` when the caller already looked, probing its port) > defaults.
 */
export function resolveConnection(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), discovery?: Discovery): Connection {
  const file = readConfigFile(cwd);
  const pick = (flag: string | undefined, flagName: string, envName: string, fileValue: string | undefined): [string | undefined, string] => {
    if (flag !== undefined) return [flag, flagName];
    const fromEnv = env[envName];
    if (fromEnv !== undefined && fromEnv !== '') return [fromEnv, envName];
    return fileValue === undefined ? [undefined, 'default'] : [fileValue, file.name ?? CONFIG_FILE];
  };
  const [baseUrl, baseSource] = pick(flags.baseUrl, '--base-url', 'PAYLINK_BASE_URL', file.baseUrl);
  const [businessId, businessSource] = pick(flags.businessId, '--business-id', 'PAYLINK_BUSINESS_ID', file.businessId);
  const [username, userSource] = pick(flags.username, '--username', 'PAYLINK_USERNAME', file.username);
  const [password, passwordSource] = pick(flags.password, '--password', 'PAYLINK_PASSWORD', file.password);
  if (businessId !== undefined && businessId.trim() === '') throw new UsageError('--business-id: must not be empty.');
  if (password !== undefined && username === undefined) throw new UsageError('--password needs --username (or PAYLINK_USERNAME).');
  // No base URL configured: the sandbox started from this folder (or one above) says where it listens;
  // when it is gone, an error says so rather than the default URL, which may be another project's sandbox.
  const discovered = baseUrl === undefined ? (discovery ?? discoverSandboxSync(cwd)) : undefined;
  const notes = (discovered?.ignored ?? []).map((why) => `Ignored a sandbox entry that is not yours to trust: ${why}.`);
  const found = discovered === undefined ? undefined : sandboxOf(discovered, cwd);
  // Its listen URL: a --public-url or a tunnel may not be reachable from here, the listen address is.
  // Nothing was started from this folder: the default URL (its port from PAYLINK_PORT when set).
  const fallback = baseUrl === undefined && found === undefined ? defaultBaseUrl(env) : undefined;
  const base = baseUrl === undefined ? (found?.listen ?? fallback!) : normalizeBaseUrl(baseUrl, baseSource);
  if (fallback !== undefined) {
    // And whose sandbox answers there, when known.
    const origin = startedFrom(fallback);
    if (origin !== undefined && !isFolderOrAbove(origin, cwd)) {
      notes.push(
        `No sandbox was started from this folder: using the one at ${fallback}, started from ${origin}. Pass --base-url (or set PAYLINK_BASE_URL) to choose.`,
      );
    }
  }
  const [caFile, caSource] =
    flags.ca !== undefined ? [flags.ca, '--ca'] : env.PAYLINK_CA ? [env.PAYLINK_CA, 'PAYLINK_CA'] : [found?.ca, found?.path ?? 'default'];
  const [timeout, timeoutSource] = flags.timeout !== undefined ? [flags.timeout, '--timeout'] : [env.PAYLINK_TIMEOUT || undefined, 'PAYLINK_TIMEOUT'];
  return {
    baseUrl: base,
    timeoutMs: timeout === undefined ? defaultTimeoutMs(base) : parseTimeout(timeout, timeoutSource),
    businessId: businessId ?? DEFAULT_BUSINESS_ID,
    username,
    password: username === undefined ? undefined : (password ?? ''),
    ...(caFile !== undefined ? { ca: readCa(resolve(cwd, caFile), caSource), caFile } : {}),
    sources: {
      baseUrl: found ? found.path : fallback !== undefined && env[PORT_ENV] ? PORT_ENV : baseSource,
      businessId: businessSource,
      username: userSource,
      password: username === undefined ? 'default' : passwordSource,
      timeout: timeout === undefined ? 'default' : timeoutSource,
      ca: caFile === undefined ? 'default' : caSource,
    },
    ...(found?.adminToken !== undefined ? { entryAdminToken: found.adminToken } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** A PEM file to trust: readable, and holding a certificate. */
function readCa(path: string, source: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${source}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Give a PEM certificate or CA file.`,
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${source}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return text;
}

/** True for a base URL on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * A local sandbox answers in milliseconds, so one that does not answer within 10 s is stuck (or is not a
 * sandbox): say so rather than wait 30 s. Anything farther away keeps the longer wait.
 */
function defaultTimeoutMs(baseUrl: string): number {
  return (isLoopbackUrl(baseUrl) ? LOCAL_TIMEOUT_SECONDS : REMOTE_TIMEOUT_SECONDS) * 1000;
}

/** `--timeout` / `PAYLINK_TIMEOUT`: seconds, more than 0, at most an hour. */
export function parseTimeout(value: string, source = '--timeout'): number {
  const seconds = Number(value.trim());
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(seconds > 0) || seconds > 3600)
    throw new UsageError(`${source}: expected seconds from 0.1 to 3600 such as 5, got "${value}".`);
  return Math.round(seconds * 1000);
}

/**
 * `webhookSecret` of `paylink.config.json` (or package.json "paylink"): `paylink sandbox`'s webhook secret
 * after `--webhook-secret` and `PAYLINK_WEBHOOK_SECRET` (docs/webhooks.md).
 */
export function configuredWebhookSecret(cwd = process.cwd()): string | undefined {
  for (const [file, key] of [
    [CONFIG_FILE, undefined],
    ['package.json', 'paylink'],
  ] as const) {
    const path = join(cwd, file);
    if (!existsSync(path)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      return undefined;
    }
    const section = (key === undefined ? parsed : (parsed as Record<string, unknown> | null)?.[key]) as Record<string, unknown> | null | undefined;
    if (key === undefined || section !== undefined) {
      const value = section?.webhookSecret;
      if (value !== undefined && typeof value !== 'string') throw new UsageError(`${file}: "webhookSecret" must be a string.`);
      return value;
    }
  }
  return undefined;
}
