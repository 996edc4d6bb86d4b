/**
 * The CLI's defaults, apart from config.ts so that `--help` (index.ts, registry.ts) reads them without
 * loading the configuration reader and sandbox discovery (node:crypto, node:net).
 */
import { DEFAULT_DB, DEFAULT_PORT } from '../sandbox/domain/defaults.js';

/** `paylink sandbox`'s defaults, shown in its help (from the sandbox's pure defaults module). */
export const SANDBOX_DEFAULTS = { port: DEFAULT_PORT, db: DEFAULT_DB } as const;
/** Seed of `paylink sandbox --deterministic` without a value. */
export const DEFAULT_DETERMINISTIC_SEED = 'paylink';
/** The local sandbox at its default port. */
export const DEFAULT_BASE_URL = `http://127.0.0.1:${SANDBOX_DEFAULTS.port}`;
/** The business id used when none is given: any id works against the sandbox. */
export const DEFAULT_BUSINESS_ID = 'sandbox-business';
