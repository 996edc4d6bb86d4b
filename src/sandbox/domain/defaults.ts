/**
 * The sandbox's defaults, in one pure module so the CLI's help can show them without loading the sandbox.
 */

/** Port `paylink sandbox` and `startSandbox` listen on when none is given. */
export const DEFAULT_PORT = 8417;

/** SQLite file used when none is given, under the working directory. */
export const DEFAULT_DB = '.paylink/sandbox.db';

/** Characters of path, request and response the request log keeps at most (about as many bytes): 32 MiB (docs/reliability.md). */
export const DEFAULT_LOG_MAX_BYTES = 32 * 1024 * 1024;
