/**
 * Where the CLI's connection settings come from: flags, then environment, then `paylink.config.json` (or
 * the `paylink` key of `package.json`) in the working directory, then defaults (docs/cli.md,
 * "Configuration file").
 */
import { DEFAULT_DB, DEFAULT_PORT } from '../sandbox/domain/defaults.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './errors.js';

/** `paylink sandbox`'s defaults, shown in its help (from the sandbox's pure defaults module). */
export const SANDBOX_DEFAULTS = { port: DEFAULT_PORT, db: DEFAULT_DB } as const;
/** Seed of `paylink sandbox --deterministic` without a value. */
export const DEFAULT_DETERMINISTIC_SEED = 'paylink';
/** The local sandbox at its default port. */
export const DEFAULT_BASE_URL = `http://127.0.0.1:${SANDBOX_DEFAULTS.port}`;
/** The business id used when none is given: any id works against the sandbox. */
export const DEFAULT_BUSINESS_ID = 'sandbox-business';
/** Name of the optional config file, read from the working directory. */
export const CONFIG_FILE = 'paylink.config.json';

/** Global options as commander hands them over. */
export interface GlobalFlags {
  baseUrl?: string;
  businessId?: string;
  username?: string;
  password?: string;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

/** The resolved connection settings. */
export interface Connection {
  /** API base URL without a trailing slash. @default "http://127.0.0.1:8417" */
  baseUrl: string;
  /** @default "sandbox-business" */
  businessId: string;
  username?: string | undefined;
  password?: string | undefined;
}

interface ConfigFile {
  baseUrl?: string;
  businessId?: string;
  username?: string;
  password?: string;
}

/** `paylink.config.json`, else the `paylink` key of `package.json`, in the working directory. */
function readConfigFile(cwd: string): ConfigFile {
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
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${name}: expected a JSON object with baseUrl, businessId, username, password.`);
  const config: ConfigFile = {};
  for (const key of ['baseUrl', 'businessId', 'username', 'password'] as const) {
    const value = (parsed as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new UsageError(`${name}: "${key}" must be a string.`);
    config[key] = value;
  }
  return config;
}

function normalizeBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: expected an absolute http(s) URL such as ${DEFAULT_BASE_URL}, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${source}: expected an http(s) URL, got "${value}".`);
  return url.href.replace(/\/+$/, '');
}

/** Resolves the connection: flags > environment > config file > defaults. */
export function resolveConnection(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Connection {
  const file = readConfigFile(cwd);
  const pick = (flag: string | undefined, envName: string, fileValue: string | undefined): [string | undefined, string] => {
    if (flag !== undefined) return [flag, 'flag'];
    const fromEnv = env[envName];
    if (fromEnv !== undefined && fromEnv !== '') return [fromEnv, envName];
    return [fileValue, CONFIG_FILE];
  };
  const [baseUrl, baseSource] = pick(flags.baseUrl, 'PAYLINK_BASE_URL', file.baseUrl);
  const [businessId] = pick(flags.businessId, 'PAYLINK_BUSINESS_ID', file.businessId);
  const [username] = pick(flags.username, 'PAYLINK_USERNAME', file.username);
  const [password] = pick(flags.password, 'PAYLINK_PASSWORD', file.password);
  if (businessId !== undefined && businessId.trim() === '') throw new UsageError('--business-id: must not be empty.');
  if (password !== undefined && username === undefined) throw new UsageError('--password needs --username (or PAYLINK_USERNAME).');
  return {
    baseUrl: baseUrl === undefined ? DEFAULT_BASE_URL : normalizeBaseUrl(baseUrl, baseSource === 'flag' ? '--base-url' : baseSource),
    businessId: businessId ?? DEFAULT_BUSINESS_ID,
    username,
    password: username === undefined ? undefined : (password ?? ''),
  };
}

/**
 * `webhookSecret` of `paylink.config.json` (or package.json "paylink"): `paylink sandbox`'s webhook secret
 * after `--webhook-secret` and `PAYLINK_WEBHOOK_SECRET` (docs/webhooks.md).
 */
export function configuredWebhookSecret(cwd = process.cwd()): string | undefined {
  for (const [file, key] of [[CONFIG_FILE, undefined], ['package.json', 'paylink']] as const) {
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
