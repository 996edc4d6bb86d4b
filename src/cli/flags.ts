/**
 * Flags more than one command takes, each declared once: the program's own (connection, output), the flags a
 * declared need brings (`needs: ['admin']` gives `--admin-token`), and options several commands share with
 * the same meaning (the card a payment or token is made with, the filters of the lists). A flag only one
 * command takes lives in that command's spec. test/unit/cli-flags.test.ts fails when the same flag with the
 * same meaning is declared twice. Also how an option is declared ({@link flag}) and the type a command
 * receives for a table of them ({@link OptionsOf}).
 */
import { DEFAULT_BUSINESS_ID, localSandboxUrl, PORT_ENV, SANDBOX_DEFAULTS } from './defaults.js';
import { collect, parseListLimit, parsePage, parseSince } from './flag-parsers.js';

/**
 * One option as `--help` shows it and the parser reads it. `V` is the type the command receives, `Always`
 * whether it always has a value (a default, a required option, a `--no-` flag). Both are for the types only.
 */
export interface Flag<V = unknown, Always extends boolean = boolean> {
  /** Commander's flag text: `--amount <amount>`, `-n, --limit <n>`, `--3ds`, `--no-follow`. */
  readonly flags: string;
  readonly help: string;
  /** Turns the typed text into the value (and refuses a bad one with a usage error, naming the flag). */
  parse?(value: string, previous: V | undefined): V;
  readonly default?: unknown;
  /** Commander refuses the command without it (`requiredOption`). */
  readonly required?: boolean | undefined;
  /** Never set: carries `V` and `Always` for {@link OptionsOf}. */
  readonly __type?: { value: V; always: Always } | undefined;
}

/** The flags of one command: the key is the name its function reads (`threeDs` for `--3ds`). */
export type Flags = Readonly<Record<string, Flag>>;

/** The value of a flag parsed without a parser: `<value>` a string, `[value]` a string or true, none a switch. */
type Plain<F extends string> = F extends `${string}<${string}` ? string : F extends `${string}[${string}` ? string | true : boolean;

/** Declares an option; the value type and whether it is always set follow from the flag text and `more`. */
export function flag<const F extends string>(flags: F, help: string): Flag<Plain<F>, F extends `--no-${string}` ? true : false>;
export function flag<const F extends string, V>(
  flags: F,
  help: string,
  more: { parse: (value: string, previous: V | undefined) => V; default: V },
): Flag<V, true>;
export function flag<const F extends string, V>(flags: F, help: string, more: { parse: (value: string, previous: V | undefined) => V }): Flag<V, false>;
export function flag<const F extends string>(flags: F, help: string, more: { default: Plain<F> } | { required: true }): Flag<Plain<F>, true>;
export function flag(flags: string, help: string, more: Omit<Flag, 'flags' | 'help'> = {}): Flag {
  return { flags, help, ...more };
}

type ValueOf<T> = T extends Flag<infer V> ? V : never;
type AlwaysSet<T> = T extends Flag<unknown, true> ? true : false;

/** The options a command's function receives, typed from its flag table. */
export type OptionsOf<O extends Flags> = { [K in keyof O as AlwaysSet<O[K]> extends true ? K : never]: ValueOf<O[K]> } & {
  [K in keyof O as AlwaysSet<O[K]> extends true ? never : K]?: ValueOf<O[K]> | undefined;
};

/** The program's flags: every command reads them (the connection, the output). */
export const PROGRAM_FLAGS = {
  baseUrl: flag(
    '--base-url <url>',
    `API base URL (env PAYLINK_BASE_URL; default ${localSandboxUrl(SANDBOX_DEFAULTS.port)}, the port from env ${PORT_ENV} when set)`,
  ),
  businessId: flag('--business-id <id>', `merchant business id (env PAYLINK_BUSINESS_ID; default ${DEFAULT_BUSINESS_ID})`),
  username: flag('--username <name>', 'HTTP Basic user (env PAYLINK_USERNAME)'),
  password: flag('--password <password>', 'HTTP Basic password (env PAYLINK_PASSWORD)'),
  ca: flag('--ca <file>', 'PEM certificate or CA to trust for an https sandbox (env PAYLINK_CA; NODE_EXTRA_CA_CERTS works too)'),
  timeout: flag('--timeout <seconds>', 'give up on a request after this long (env PAYLINK_TIMEOUT; default 10 for a local sandbox, 30 otherwise)'),
  json: flag('--json', 'machine output: exactly one JSON document on stdout'),
  color: flag('--no-color', 'no colours (NO_COLOR works too)'),
  quiet: flag('-q, --quiet', 'results only: no notes, no spinners'),
} as const;

/** The program's flags as a command sees them, with `--admin-token`. */
export type ProgramOptions = OptionsOf<typeof PROGRAM_FLAGS> & OptionsOf<typeof NEED_FLAGS.admin>;

/** The flags each need brings to the commands that declare it, after their own. */
export const NEED_FLAGS = {
  connection: {},
  admin: { adminToken: flag('--admin-token <token>', 'admin token of a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)') },
} as const;

/**
 * What a command needs besides its own flags. `connection`: the connection is resolved (flags > env >
 * config file > the sandbox found here) before it runs, so a broken config file fails every such command
 * the same way. `admin`: it reaches `/__sandbox/`, so it takes `--admin-token` (below).
 */
export type Need = keyof typeof NEED_FLAGS;

/** The flags the needs bring, by the name a command reads (`adminToken`). */
export type NeedFlagName = { [N in Need]: keyof (typeof NEED_FLAGS)[N] }[Need];

/** The card a payment is made with or a token saves (`payment create`, `token create`). */
export const CARD_FLAGS = {
  card: flag('--card <number>', 'card number'),
  expiryMonth: flag('--expiry-month <mm>', 'default 12'),
  expiryYear: flag('--expiry-year <yyyy>', 'default: three years ahead'),
  holder: flag('--holder <name>', 'card holder name (default Test Customer)'),
} as const;

/** What `link create`, `checkout create` and `payment create` are made of. */
export const CREATE_FLAGS = {
  amount: flag('--amount <amount>', 'amount, e.g. 12.50'),
  trackingCode: flag('--tracking-code <code>', 'your unique reference (generated when not given)'),
} as const;

/** The filters and pages of the list commands (`link list`, `checkout list`, `payment list`, `token list`). */
export const LIST_FLAGS = {
  trackingCode: flag('--tracking-code <code>', 'only this tracking code'),
  since: flag('--since <time>', 'only created since a date-time (2030-01-01T00:00:00Z) or a duration back from now (1h, 2d)', { parse: parseSince }),
  limit: flag('-n, --limit <n>', 'how many, newest first (1 to 200)', { parse: parseListLimit, default: 20 }),
  page: flag('--page <n>', 'which page of --limit items, 1 the newest: --page 2 shows the ones after them', { parse: parsePage }),
} as const;

/** The faults a webhook delivery can be given (`webhooks add`, `listen`). */
export const DELIVERY_FAULT_FLAG = flag('--fault <name>', 'duplicate, out-of-order, bad-signature or tampered-body, repeatable or comma-separated', {
  parse: collect,
});

/** What `link create` and `checkout create` share: the hosted form's amount, brands and return. */
export const HOSTED_CREATE_FLAGS = {
  amount: CREATE_FLAGS.amount,
  currency: flag('--currency <code>', 'ISO 4217 currency code, e.g. EUR'),
  brand: flag('--brand <id|name>', 'brand offered, repeatable or comma-separated (default: every card brand)', { parse: collect }),
  returnUrl: flag('--return-url <url>', 'where the customer goes after the form'),
  trackingCode: CREATE_FLAGS.trackingCode,
  authorize: flag('--authorize', 'authorize only (authorizationMode authorize)'),
} as const;

/** Only the traffic of one business (`logs`, `faults add`). */
export const REQUEST_BUSINESS_FLAG = flag('--business <id>', 'only requests of this business id');

/** `Transaction.Create` or `Transaction.Update` (`events list`, `events send`). */
export const EVENT_TYPE_FLAG = flag('--type <type>', 'Transaction.Create or Transaction.Update (create, update)');
