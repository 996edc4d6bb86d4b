/**
 * The CLI's process exit codes (docs/cli.md, "Exit codes"). Only `index.ts` sets one; the error types in
 * `errors.ts` carry theirs.
 */
export const EXIT_CODES = {
  /** Done as asked (a decline that was asked for included). */
  ok: 0,
  /** A mistake in how the command was called: a missing or bad flag, an unreadable file. */
  usage: 2,
  /** The API refused, or the outcome is not the one asked for. */
  api: 3,
  /** No sandbox (or API) answered at the base URL. */
  unreachable: 4,
  /** The person pressed Ctrl-C at a prompt (nothing was sent) or while a command waited (128 + SIGINT, as shells report it). */
  cancelled: 130,
  /** A bug: an error nobody expected (EX_SOFTWARE of sysexits.h). */
  internal: 70,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
