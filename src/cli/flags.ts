/**
 * Flags more than one command takes, each declared once: the program's own (connection, output), the flags a
 * declared need brings (`needs: ['admin']` gives `--admin-token`), and options several commands share with
 * the same meaning (the card a payment or token is made with, the filters of the lists). A flag only one
 * command takes lives in that command's spec. test/unit/cli-flags.test.ts fails when a flag name is declared
 * twice, whatever the help says, unless the test lists the place as one where the name means something else
 * (and that spec says why beside it). Also how an option is declared ({@link flag}) and the type a command
 * receives for a table of them ({@link OptionsOf}).
 */
import { DEFAULT_BUSINESS_ID, LOCAL_TIMEOUT_SECONDS, localSandboxUrl, PORT_ENV, REMOTE_TIMEOUT_SECONDS, SANDBOX_DEFAULTS } from './defaults.js';
import { collect, parseListLimit, parsePage, parseSince } from './flag-parsers.js';
import { BRANDS } from '../sandbox/domain/brands.js';
import { defaultCardFields, testCardCvv } from '../sandbox/domain/hosted-form.js';
import { OUTCOME_NAMES } from '../sandbox/domain/outcome-names.js';

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
  timeout: flag(
    '--timeout <seconds>',
    `give up on a request after this long (env PAYLINK_TIMEOUT; default ${LOCAL_TIMEOUT_SECONDS} for a local sandbox, ${REMOTE_TIMEOUT_SECONDS} otherwise)`,
  ),
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

/**
 * The card a payment is made with or a token saves (`pay`, `payment create`, `token create`; a token keeps
 * no CVV, so `token create` takes no `--cvv`). The defaults are the sandbox's own test-card fields
 * (domain/hosted-form.ts `defaultCardFields`).
 */
// At year 0 the filled expiry year is how many years ahead the default lies.
const FILLED = defaultCardFields(undefined, 0);
/** The card brands whose test cards take another CVV than most (`1234 for American Express`). */
const OTHER_CVVS = BRANDS.filter((b) => b.kind === 'card' && testCardCvv(b.id) !== FILLED.cvv).map((b) => `${testCardCvv(b.id)} for ${b.name}`);

export const CARD_FLAGS = {
  card: flag('--card <number>', 'card number (spaces allowed)'),
  outcome: flag('--outcome <name>', `test-card outcome: ${OUTCOME_NAMES.join(', ')}`),
  expiryMonth: flag('--expiry-month <mm>', `card expiry month (default ${FILLED.expiryMonth})`),
  // The sandbox clock's year: `pay` reads it from the page's answer, the others from `/__sandbox/clock` (cli/client.ts `clockYear`).
  expiryYear: flag('--expiry-year <yyyy>', `card expiry year (default: the sandbox clock's year + ${FILLED.expiryYear})`),
  cvv: flag('--cvv <cvv>', `card CVV (default ${[FILLED.cvv, ...OTHER_CVVS].join(', ')})`),
  holder: flag('--holder <name>', `card holder name (default ${FILLED.holderName})`),
} as const;

/** What `link create`, `checkout create` and `payment create` are made of. */
export const CREATE_FLAGS = {
  amount: flag('--amount <amount>', 'amount, e.g. 12.50'),
  currency: flag('--currency <code>', 'ISO 4217 currency code, e.g. EUR'),
  trackingCode: flag('--tracking-code <code>', 'your unique reference (generated when not given)'),
  authorize: flag('--authorize', 'authorize only, capture later (authorizationMode authorize)'),
} as const;

/** A `get` that reads by tracking code instead of id (`link get`, `checkout get`, `payment get`). */
export const GET_BY_TRACKING_CODE_FLAG = flag('--tracking-code <code>', 'read by this tracking code instead of an id');

/** What the id given to `pay` and `status` is, when the caller knows (`paylink pay --link 3f1c...`). */
export const ID_KIND_FLAGS = {
  link: flag('--link', 'the id is a payment link (skip the lookup)'),
  checkout: flag('--checkout', 'the id is a checkout (skip the lookup)'),
  payment: flag('--payment', 'the id is a payment (skip the lookup)'),
} as const;

/** The filters and pages of the list commands (`link list`, `checkout list`, `payment list`, `token list`). */
export const LIST_FLAGS = {
  trackingCode: flag('--tracking-code <code>', 'only this tracking code'),
  since: flag('--since <time>', 'only created since a date-time (2030-01-01T00:00:00Z) or a duration back from now (1h, 2d)', { parse: parseSince }),
  limit: flag('-n, --limit <n>', 'how many, newest first (1 to 200)', { parse: parseListLimit, default: 20 }),
  page: flag('--page <n>', 'which page of --limit items, 1 the newest: --page 2 shows the ones after them', { parse: parsePage }),
} as const;

/** What a webhook delivery can be given: which events, faults, a delay (`webhooks add`, `listen`). */
export const DELIVERY_FLAGS = {
  events: flag('--events <types>', 'only these event types: Transaction.Create, Transaction.Update (or create, update), repeatable or comma-separated', {
    parse: collect,
  }),
  fault: flag('--fault <name>', 'duplicate, out-of-order, bad-signature or tampered-body, repeatable or comma-separated', { parse: collect }),
  delay: flag('--delay <ms>', 'hold each delivery this long first (500ms, 2s)'),
} as const;

/** What `link create` and `checkout create` share: the hosted form's amount, brands and return. */
export const HOSTED_CREATE_FLAGS = {
  amount: CREATE_FLAGS.amount,
  currency: CREATE_FLAGS.currency,
  brand: flag('--brand <id|name>', 'brand offered, repeatable or comma-separated (default: every card brand)', { parse: collect }),
  returnUrl: flag('--return-url <url>', 'where the customer goes after the form'),
  trackingCode: CREATE_FLAGS.trackingCode,
  // No commander default: a link without it is sent without `tokenize` (the API's default, false).
  tokenize: flag('--tokenize <mode>', 'save the card as a token: false, inquire or true (default false)'),
  authorize: CREATE_FLAGS.authorize,
} as const;

/** Only what belongs to one business (`logs`, `faults add`, `advise`, `webhooks list`, `events list`). */
export const BUSINESS_FILTER_FLAG = flag('--business <id>', 'only what belongs to this business id (default: every business)');

/** `Transaction.Create` or `Transaction.Update` (`events list`, `events send`). */
export const EVENT_TYPE_FLAG = flag('--type <type>', 'Transaction.Create or Transaction.Update (create, update)');
