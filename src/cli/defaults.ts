/**
 * The CLI's defaults, apart from config.ts so that `--help` (index.ts, registry.ts) reads them without
 * loading the configuration reader and sandbox discovery (node:crypto, node:net).
 */
import { DEFAULT_DB, DEFAULT_PORT } from '../sandbox/domain/defaults.js';
import { UsageError } from './errors.js';

/** `paylink sandbox`'s built-in defaults, shown in its help (from the sandbox's pure defaults module). */
export const SANDBOX_DEFAULTS = { port: DEFAULT_PORT, db: DEFAULT_DB } as const;
/** Seed of `paylink sandbox --deterministic` without a value. */
export const DEFAULT_DETERMINISTIC_SEED = 'paylink';
/** What `paylink trigger`'s scenarios pay when `--amount` and `--currency` are not given. */
export const SCENARIO_PAYMENT_DEFAULTS = { amount: 10, currency: 'EUR' } as const;
/** Seconds a request may take against a sandbox on this machine before the CLI gives up. */
export const LOCAL_TIMEOUT_SECONDS = 10;
/** Seconds a request may take against any other host (a deployment, a tunnel). */
export const REMOTE_TIMEOUT_SECONDS = 30;
/** The business id used when none is given: any id works against the sandbox. */
export const DEFAULT_BUSINESS_ID = 'sandbox-business';
/** The environment variable that moves the default port, for `paylink sandbox` and the clients alike. */
export const PORT_ENV = 'PAYLINK_PORT';

/**
 * The default port: `PAYLINK_PORT` when set (and not empty), else 8417. `paylink sandbox` listens on it
 * without `--port`, and the other commands reach `http://127.0.0.1:<it>` when no base URL is configured and
 * no sandbox was started from their folder. Refuses anything but a whole number from 1 to 65535 with a
 * usage error (exit 2), never falling back to 8417: `0` too, since the clients could not reach "any free
 * port" (for that, `paylink sandbox --port 0`, which the commands run from the same folder find).
 */
export function defaultPort(env: NodeJS.ProcessEnv = process.env): number {
  const value = env[PORT_ENV];
  if (value === undefined || value === '') return SANDBOX_DEFAULTS.port;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (port >= 1 && port <= 65535) return port;
  const zero =
    port === 0
      ? ': it is the port the commands reach, so it cannot be "any free port" (for that, `paylink sandbox --port 0`: commands run from the same folder find it)'
      : '';
  throw new UsageError(
    `${PORT_ENV}: expected a port number from 1 to 65535, got "${value}"${zero}. Fix it, or unset it for the default ${SANDBOX_DEFAULTS.port}.`,
  );
}

/** Where the commands reach a local sandbox listening on `port`. */
export function localSandboxUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** The local sandbox at the default port ({@link defaultPort}): the base URL when nothing else says one. */
export function defaultBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return localSandboxUrl(defaultPort(env));
}
