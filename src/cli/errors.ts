import { EXIT_CODES } from '../sandbox/errors.js';

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
