/**
 * `paylink link list`, `checkout list`, `payment list`: one declaration, made for each kind by
 * {@link listCommand}; `token list` takes the same filters (token.spec.ts).
 */
import { command, type Later } from '../command-spec.js';
import { parseState } from '../flag-parsers.js';
import { LIST_FLAGS, flag } from '../flags.js';

export type ListKind = 'link' | 'checkout' | 'payment';

/** The `list` subcommand of `kind`, whose states are `states` (and `example` one of them, for its help). */
export function listCommand(kind: ListKind, states: readonly string[], example: string) {
  return command({
    name: 'list',
    description: `List the newest ${kind === 'link' ? 'payment links' : `${kind}s`} of the business with their state now (sandbox only)`,
    options: {
      // One declaration, the states of each kind.
      status: flag('--status <state>', `only this state: ${states.join(', ')}`, { parse: (value: string) => parseState(value, states) }),
      ...LIST_FLAGS,
    },
    needs: ['connection', 'admin'],
    examples: [`paylink ${kind} list`, `paylink ${kind} list --status ${example} --since 1h`, `paylink ${kind} list --limit 5 --json`],
    run: (): Later => import('./list.js').then((m) => m.listerOf(kind)),
  });
}

/** Any kind's `list` declaration: `Options<ListSpec>` is what its function receives. */
export type ListSpec = ReturnType<typeof listCommand>;
