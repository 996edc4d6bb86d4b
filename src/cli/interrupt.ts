/**
 * Ctrl-C while a command waits on the network. `ui.spin` turns the SIGINT of a person's Ctrl-C into
 * {@link interrupt}; every request the CLI's transport (`http.ts`) has in flight listens to
 * {@link interruption} and aborts at once, and the command ends with exit 130 (docs/cli.md, "Exit codes").
 */
import { CancelledError } from './errors.js';

const controller = new AbortController();

/** Aborted once the person pressed Ctrl-C; its reason is a {@link CancelledError}. */
export const interruption: AbortSignal = controller.signal;

/** Aborts every request in flight, and every one sent after. */
export function interrupt(): void {
  if (!controller.signal.aborted) controller.abort(new CancelledError('Interrupted.'));
}
