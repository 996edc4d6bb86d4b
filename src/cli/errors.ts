/**
 * The CLI's typed errors. Commands throw them; the one catch in `index.ts` turns each into a message on
 * stderr and its exit code (docs/cli.md, "Exit codes").
 */
import { EXIT_CODES } from './exit-codes.js';

/** A mistake in how a command was called (a missing flag, a bad value): exit code 2. */
export class UsageError extends Error {
  readonly exitCode = EXIT_CODES.usage;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The sandbox (or API) could not be reached: exit code 4, with a hint on how to start it. */
export class UnreachableError extends Error {
  readonly exitCode = EXIT_CODES.unreachable;
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/** The person cancelled a question (Ctrl-C at a prompt) before anything was sent: exit code 130. */
export class CancelledError extends Error {
  readonly exitCode = EXIT_CODES.cancelled;
  constructor(message = 'Cancelled.') {
    super(message);
    this.name = 'CancelledError';
  }
}

/** The response envelope of a failed call, as the CLI got it over HTTP. */
export interface ErrorEnvelope {
  result?: number;
  description?: string;
  header?: Record<string, unknown>;
  body?: { error?: { code?: number; message?: string } } & Record<string, unknown>;
}

/**
 * The API answered with an error envelope (HTTP 4xx/5xx), or refused what the command asked for: exit
 * code 3. `envelope` is printed unchanged on stdout with `--json`; `data` replaces it for commands whose
 * JSON output is their own documented object (pay, follow, status).
 */
export class ApiResponseError extends Error {
  readonly exitCode = EXIT_CODES.api;
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly envelope: ErrorEnvelope | undefined,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiResponseError';
  }

  /** Builds the error from an envelope: "Input error (-1, code 1002): Invalid property value: ...". */
  static fromEnvelope(status: number, envelope: ErrorEnvelope | undefined, context?: string): ApiResponseError {
    const error = envelope?.body?.error;
    const head =
      envelope === undefined && status === 404
        ? 'Not found (HTTP 404 with no body: check the id and the business id)'
        : `${envelope?.description ?? `HTTP ${status}`} (${envelope?.result ?? '?'}${error?.code === undefined ? '' : `, code ${error.code}`})`;
    const text = `${context ? `${context}: ` : ''}${head}${error?.message ? `: ${error.message}` : ''}`;
    return new ApiResponseError(text, status, envelope);
  }
}

/**
 * An error the sandbox itself threw inside this process (`paylink sandbox` runs one): it carries the
 * envelope's result, description and error code. Recognised by shape, since the CLI does not import the
 * sandbox's error catalogue.
 */
export interface SandboxFailure extends Error {
  result: number;
  description: string;
  code: number;
}

export function isSandboxFailure(error: unknown): error is SandboxFailure {
  const e = error as Partial<SandboxFailure> | null;
  return error instanceof Error && typeof e?.result === 'number' && typeof e.description === 'string' && typeof e.code === 'number';
}

/**
 * What a listener on a port that is taken (EADDRINUSE) says, and what to do: `how` says how to pick another
 * port when the command knows (`with --port`), for `paylink sandbox`'s own flags and any other listener.
 */
export function portInUseMessage(error: Error, how = 'port'): string {
  return `${error.message}. Another process uses that port: stop it, or pick another ${how}.`;
}
