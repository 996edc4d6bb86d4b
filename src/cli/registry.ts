/**
 * Every `paylink` command as the parser and `--help` see it: name, description, options and examples. This
 * module is loaded at every start, so it stays light: it imports no command module. Each action imports
 * its command's module (`commands/<verb>.ts`) when that command runs, and calls the command's typed
 * function through {@link Runner}, so `paylink --version` and `--help` load only commander and this file,
 * and `paylink pay` never loads the sandbox (changesets' packages/cli/src/cli.ts works the same way).
 */
import type { Command } from 'commander';
import { OUTCOME_NAMES } from '../sandbox/domain/outcome-names.js';
import { DEFAULT_DETERMINISTIC_SEED, SANDBOX_DEFAULTS } from './defaults.js';
import type { CommandContext } from './context.js';
import { collect, parseLimit, parseListLimit, parsePage, parseSince, parseState, parseStatus } from './flag-parsers.js';
import { API_BASE } from '../sandbox/domain/routes.js';

export interface RunOptions {
  /**
   * Resolve the connection (flags > env > config file) before the command runs, so a broken config file
   * fails every command that talks to a sandbox the same way. `paylink sandbox` and `completion` need none.
   * @default true
   */
  connection?: boolean;
}

/**
 * Runs one command: imports its module with `load` (only now), builds the context from the parsed flags of
 * `cmd`, and calls the command's function. Errors go to the one catch in `index.ts`.
 */
export type Runner = <M>(cmd: Command, load: () => Promise<M>, call: (module: M, ctx: CommandContext) => unknown, options?: RunOptions) => Promise<void>;

/** A payment's state in the lists: its result's description in capital letters only (the result table of docs/api.md). */
const PAYMENT_STATES =
  'OK, SUCCESS, COMPLETED, PENDING, TIMEOUT, FAILED, FAILEDRETRY, DECLINED, DECLINEDRETRY, SECURITYERROR, INTERNALSERVERERROR, BUSINESSRULEERROR, FRAUD, CUSTOMERPROCESSINGERROR, REFERRALS';

const ADMIN_TOKEN_HELP = 'admin token of a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)';

/** `link list`, `checkout list`, `payment list`: the same options, states and JSON shape. */
function registerList(parent: Command, kind: 'link' | 'checkout' | 'payment', states: string, run: Runner): void {
  parent
    .command('list')
    .description(`List the newest ${kind === 'link' ? 'payment links' : `${kind}s`} of the business with their state now (sandbox only)`)
    .option('--status <state>', `only this state: ${states}`, (value: string) => parseState(value, states.split(', ')))
    .option('--tracking-code <code>', 'only this tracking code')
    .option('--since <time>', 'only created since a date-time (2030-01-01T00:00:00Z) or a duration back from now (1h, 2d)', parseSince)
    .option('-n, --limit <n>', 'how many, newest first (1 to 200)', parseListLimit, 20)
    .option('--page <n>', 'which page of --limit items, 1 the newest: --page 2 shows the ones after them', parsePage)
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      `\nExamples:\n  $ paylink ${kind} list\n  $ paylink ${kind} list --status ${states.split(', ')[kind === 'payment' ? 7 : 2]} --since 1h\n  $ paylink ${kind} list --limit 5 --json`,
    )
    .action((options: { status?: string; trackingCode?: string; since?: string; limit: number; page?: number }, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/list.js'),
        (m, ctx) => m.listResources(kind, options, ctx),
      ),
    );
}

/** Registers every command on `program`. */
export function registerCommands(program: Command, run: Runner): void {
  registerSandbox(program, run);
  registerLink(program, run);
  registerCheckout(program, run);
  registerOpen(program, run);
  registerPay(program, run);
  registerFollow(program, run);
  registerStatus(program, run);
  registerPayment(program, run);
  registerToken(program, run);
  registerCompletion(program, run);
  registerVersion(program, run);
  registerDropIn(program, run);
  registerConfig(program, run);
  registerClock(program, run);
  registerLogs(program, run);
  registerAdvise(program, run);
  registerReset(program, run);
  registerSnapshot(program, run);
  registerWait(program, run);
  registerFixtures(program, run);
  registerWebhooks(program, run);
  registerEvents(program, run);
  registerListen(program, run);
  registerFaults(program, run);
  registerApi(program, run);
  registerTrigger(program, run);
}

function registerSandbox(program: Command, run: Runner): void {
  program
    .command('sandbox')
    .description('Start the local payment API sandbox (API v3, hosted pages, browser library, dashboard)')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', String(SANDBOX_DEFAULTS.port))
    .option('-H, --host <host>', 'interface to listen on', '127.0.0.1')
    .option('--db <path>', 'SQLite database file, or :memory:', SANDBOX_DEFAULTS.db)
    .option('--https', "serve HTTPS with a certificate from paylink's local authority (localhost and the provider's hosts)")
    .option('--cert <file>', 'TLS certificate (PEM) for HTTPS')
    .option('--key <file>', 'TLS private key (PEM) for HTTPS')
    .option('--public-url <url>', 'public base URL (tunnel or reverse proxy) used in redirect URLs and the library')
    .option('--credentials <file|user:pass=biz,...>', 'require HTTP Basic credentials owning the business ids')
    .option('--admin-token <token>', 'token for /__sandbox/ and the dashboard (generated when not on loopback)')
    .option('--seed <file>', 'load a fixture file once listening (repeatable; docs/fixtures.md)', collect)
    .option('--deterministic [seed]', `reproducible ids and approval codes (default seed "${DEFAULT_DETERMINISTIC_SEED}")`)
    .option('--tunnel', 'open a public URL through a tunnel (needs network; falls back to local)')
    .option('--request-log-mb <megabytes>', 'size the request log is held to, oldest rows pruned first (default 32)')
    .option('--allowed-host <host>', 'another host name requests may use (repeatable; .example.test for subdomains too); others get 421', collect)
    .option('--webhook-secret <secret>', 'secret webhook events are signed with (env PAYLINK_WEBHOOK_SECRET; default: generated once, stored)')
    .option('--webhook-retry <schedule>', 'webhook retry schedule: standard (5 s to 6 h) or fast (about 5 s, for tests)', 'standard')
    .option('--webhook-header <name>', 'request header carrying the event signature', 'x-payvision-signature')
    .option('--proxy <port>', "also an HTTP proxy on 127.0.0.1:<port> that answers the provider's hosts and refuses all others (docs/drop-in.md)")
    .addHelpText(
      'after',
      `
Examples:
  $ paylink sandbox
  $ paylink sandbox --port 9000 --db :memory:
  $ paylink sandbox --https --public-url https://my-tunnel.example.com
  $ paylink sandbox --credentials merchant:secret=shop-1,shop-2
  $ paylink sandbox --db :memory: --deterministic --seed fixtures/paid-link.json
  $ paylink sandbox --tunnel
  $ paylink sandbox --proxy 8418     # then in another shell: eval "$(paylink env)"`,
    )
    .action((_o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/sandbox.js'),
        (m, ctx) => m.serveSandbox(cmd.opts(), ctx.ui),
        { connection: false },
      ),
    );
}

function createOptions(command: Command): Command {
  return command
    .option('--amount <amount>', 'amount, e.g. 12.50')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. EUR')
    .option('--brand <id|name>', 'brand offered, repeatable or comma-separated (default: every card brand)', collect)
    .option('--return-url <url>', 'where the customer goes after the form')
    .option('--tracking-code <code>', 'your unique reference (generated when not given)');
}

function registerLink(program: Command, run: Runner): void {
  const load = () => import('./commands/link.js');
  const link = program
    .command('link')
    .description('Create, read and cancel payment links')
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink link create --amount 12.50 --currency EUR --return-url http://localhost:3000/return\n  $ paylink link get <linkId>\n  $ paylink link cancel <linkId>',
    );
  createOptions(link.command('create').description('Create a payment link (asks for missing values on a terminal)'))
    .option('--tokenize <mode>', 'false | inquire | true')
    .option('--duration <duration>', 'validity: P<n>D, PT<n>H or PT<n>M', 'P1D')
    .option('--3ds', 'always ask for 3-D Secure on approved cards')
    .option('--authorize', 'authorize only (authorizationMode authorize)')
    .addHelpText(
      'after',
      `
Examples:
  $ paylink link create --amount 12.50 --currency EUR --return-url https://shop.example/return
  $ paylink link create --amount 5 --currency EUR --brand visa,mastercard --duration PT10M --return-url http://localhost:3000/done
  $ paylink link create --amount 20 --currency EUR --return-url https://shop.example/r --3ds --json | jq -r .body.link.linkId`,
    )
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.linkCreate({ ...cmd.opts(), threeDs: cmd.opts()['3ds'] === true }, ctx)));
  link
    .command('get [linkId]')
    .description('Read a payment link and its payments, by id or tracking code')
    .option('--tracking-code <code>', 'find the link by its tracking code')
    .addHelpText('after', '\nExamples:\n  $ paylink link get 3f1c...\n  $ paylink link get --tracking-code order-1042 --json')
    .action((id: string | undefined, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.linkGet(id, cmd.opts(), ctx)));
  link
    .command('cancel <linkId>')
    .description('Cancel a READY or PENDING payment link')
    .addHelpText('after', '\nExamples:\n  $ paylink link cancel 3f1c...')
    .action((id: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.linkCancel(id, ctx)));
  registerList(link, 'link', 'READY, PENDING, PAID, DECLINED, DECLINEDBYCUSTOMER, CANCELLED, EXPIRED', run);
}

function registerCheckout(program: Command, run: Runner): void {
  const load = () => import('./commands/checkout.js');
  const checkout = program
    .command('checkout')
    .description('Create and read checkouts (optionally saving the card as a token)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink checkout create --amount 20 --currency EUR --tokenize inquire --return-url http://localhost:3000/return\n  $ paylink checkout get <checkoutId> --json',
    );
  createOptions(checkout.command('create').description('Create a checkout, valid for 30 minutes (asks for missing values on a terminal)'))
    .option('--tokenize <mode>', 'false | inquire | true (save the card as a token)', 'false')
    .option('--authorize', 'authorize only (authorizationMode authorize)')
    .addHelpText(
      'after',
      `
Examples:
  $ paylink checkout create --amount 20 --currency EUR --return-url https://shop.example/return
  $ paylink checkout create --amount 20 --currency EUR --tokenize inquire --return-url http://localhost:3000/done --json`,
    )
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.checkoutCreate(cmd.opts(), ctx)));
  checkout
    .command('get [checkoutId]')
    .description('Read a checkout and its payments, by id or tracking code')
    .option('--tracking-code <code>', 'find the checkout by its tracking code')
    .addHelpText('after', '\nExamples:\n  $ paylink checkout get 9b2e...\n  $ paylink checkout get --tracking-code order-1042 --json')
    .action((id: string | undefined, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.checkoutGet(id, cmd.opts(), ctx)));
  registerList(checkout, 'checkout', 'PENDING, PAID, DECLINED, DECLINEDBYCUSTOMER, TIMEOUT', run);
}

function registerOpen(program: Command, run: Runner): void {
  program
    .command('open <id>')
    .description(
      "Open an id's page in the default browser (or print its URL): a link's or checkout's hosted page, the page a pending payment waits on (card form, bank, wallet, 3-D Secure) else its dashboard page, a token's dashboard page, or the dashboard (`open dashboard`)",
    )
    .option('--print', 'only print the URL')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink open 3f1c...\n  $ paylink open 3f1c... --print\n  $ paylink open dashboard')
    .action((id: string, _o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/open.js'),
        (m, ctx) => m.openPage(id, cmd.opts(), ctx),
      ),
    );
}

function registerPay(program: Command, run: Runner): void {
  program
    .command('pay <id>')
    .description(
      'Play the customer: fill in the hosted form of a link or checkout, press a button on the bank or wallet page of an iDEAL, Sofort, Giropay, EPS or PayPal payment, or answer the 3-D Secure page or card form a card payment waits on, over HTTP; follow the redirect, print the status',
    )
    .option('--card <number>', 'card number to type (spaces allowed)')
    .option('--outcome <name>', `test-card outcome: ${OUTCOME_NAMES.join(', ')}; on a bank or wallet page: approved, cancelled, failed, declined`)
    .option('--save-card', 'tick "save card" (checkouts with --tokenize inquire)')
    .option('--saved-card', 'pay a one-click checkout with the first saved card its page offers (its CVV only: --cvv, default 123)')
    .option('--decline', 'press the decline button instead of paying')
    .option('--3ds-code <code>', 'code for a 3-D Secure challenge (1234 approves)', undefined)
    .option('--3ds-cancel', 'cancel the 3-D Secure challenge')
    .option('--expiry-month <mm>', 'card expiry month (default 12)')
    .option('--expiry-year <yyyy>', 'card expiry year (default: three years ahead)')
    .option('--cvv <cvv>', 'card CVV (default 123, 1234 for American Express)')
    .option('--holder <name>', 'card holder name', 'Test Customer')
    .option('--link', 'the id is a payment link (skip the lookup)')
    .option('--checkout', 'the id is a checkout (skip the lookup)')
    .option('--payment', 'the id is a payment: bank, wallet, or card waiting on a page (skip the lookup)')
    .option('--no-follow', 'do not GET the returnUrl the page redirects to')
    .addHelpText(
      'after',
      `
Without --card or --outcome, asks on a terminal and pays with the approve card otherwise.
A bank or wallet payment (iDEAL, Sofort, Giropay, EPS, PayPal) takes --outcome approved (Approve
payment, 0), cancelled (Cancel, -10), failed (Make it fail, -2) or declined (Decline, -4); default approved.

Examples:
  $ paylink pay 3f1c...                              # approve card
  $ paylink pay 3f1c... --outcome declined           # exit 0: a decline was asked for
  $ paylink pay 3f1c... --outcome 3ds --3ds-code 0000
  $ paylink pay 9b2e... --save-card --json | jq -r .payment.token
  $ paylink pay 3f1c... --decline
  $ paylink pay 7a9d... --outcome cancelled          # an iDEAL payment: press Cancel on its bank page`,
    )
    .action((id: string, _o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/pay.js'),
        (m, ctx) => {
          const o = cmd.opts();
          return m.pay(id, { ...o, threeDsCode: o['3dsCode'], threeDsCancel: o['3dsCancel'] === true }, ctx);
        },
      ),
    );
}

function registerConfig(program: Command, run: Runner): void {
  program
    .command('config')
    .description('Show the settings commands use from here and where each came from (flag, environment, config file, the sandbox found, default)')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink config\n  $ paylink --business-id shop-1 config --json')
    .action((options: { adminToken?: string }, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/config.js'),
        (m, ctx) => m.showConfig(ctx, options, cmd.optsWithGlobals()),
        { connection: false },
      ),
    );
}

function registerFollow(program: Command, run: Runner): void {
  program
    .command('follow <id>')
    .description("Follow the returnUrl redirect of a completed link or checkout again (GET the merchant's page)")
    .option('--return-url <url>', 'the returnUrl given at creation (needed when it was created from another folder or tool)')
    .addHelpText('after', '\nExamples:\n  $ paylink follow 3f1c...\n  $ paylink follow 9b2e... --return-url http://localhost:3000/done --json')
    .action((id: string, _o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/follow.js'),
        (m, ctx) => m.follow(id, cmd.opts(), ctx),
      ),
    );
}

function registerStatus(program: Command, run: Runner): void {
  program
    .command('status <id>')
    .description('One view of a link, checkout or payment: lifecycle, attempts, amounts, token')
    .option('--link', 'the id is a payment link')
    .option('--checkout', 'the id is a checkout')
    .option('--payment', 'the id is a payment')
    .addHelpText('after', '\nExamples:\n  $ paylink status 3f1c...\n  $ paylink status 9b2e... --json | jq -r .token')
    .action((id: string, _o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/status.js'),
        (m, ctx) => m.status(id, cmd.opts(), ctx),
      ),
    );
}

function registerPayment(program: Command, run: Runner): void {
  const load = () => import('./commands/payment.js');
  const payment = program
    .command('payment')
    .description('Direct payments: create, read, capture, cancel, refund')
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink payment create --amount 10 --currency EUR --authorize\n  $ paylink payment capture <paymentId> --amount 4\n  $ paylink payment refund <paymentId>',
    );
  payment
    .command('create')
    .description(
      'Create a payment with a card or a token (the approve test card unless told otherwise), or by a bank or wallet brand (iDEAL, Sofort, Giropay, EPS, PayPal) that the customer completes on its page',
    )
    .option('--amount <amount>', 'amount, e.g. 12.50')
    .option('--currency <code>', 'ISO 4217 currency code')
    .option('--tracking-code <code>', 'your unique reference (generated when not given)')
    .option('--card <number>', 'card number')
    .option('--outcome <name>', `test-card outcome: ${OUTCOME_NAMES.join(', ')}`)
    .option('--token <token>', 'pay with a saved card token instead of a card')
    .option('--brand <id|name>', 'brand id (default: from the card number); ideal, sofort, giropay, eps, paypal or afterpay take no card')
    .option('--return-url <url>', 'bank and wallet brands: where the bank or wallet page sends the customer (returnUrl?id=<paymentId>)')
    .option('--issuer <id>', "iDEAL: the customer's bank (body.bank.issuerId)")
    .option('--expiry-month <mm>', 'default 12')
    .option('--expiry-year <yyyy>', 'default: three years ahead')
    .option('--cvv <cvv>', 'default 123 (1234 for American Express)')
    .option('--holder <name>', 'card holder name (default Test Customer)')
    .option('--authorize', 'authorize only; capture later with `paylink payment capture`')
    .option('--tokenize', 'save the card as a token')
    .addHelpText(
      'after',
      `
Examples:
  $ paylink payment create --amount 10 --currency EUR
  $ paylink payment create --amount 10 --currency EUR --outcome declined        # exit 0
  $ paylink payment create --amount 10 --currency EUR --authorize --json | jq -r .body.transaction.id
  $ paylink payment create --amount 10 --currency EUR --token 5d0c...
  $ paylink payment create --amount 10 --currency EUR --brand ideal --return-url http://localhost:3000/back
  $ paylink pay <paymentId> --outcome approved                                  # press Approve on its bank page`,
    )
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.paymentCreate(cmd.opts(), ctx)));
  payment
    .command('get [paymentId]')
    .description('Read a payment by id, or the payments of a tracking code')
    .option('--tracking-code <code>', 'list the payments with this tracking code')
    .addHelpText('after', '\nExamples:\n  $ paylink payment get 7a9d...\n  $ paylink payment get --tracking-code order-1042 --json')
    .action((id: string | undefined, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.paymentGet(id, cmd.opts(), ctx)));
  for (const verb of ['capture', 'cancel', 'refund'] as const) {
    const sub = payment
      .command(`${verb} <paymentId>`)
      .description({ capture: 'Capture an authorization', cancel: 'Cancel (void) an authorization', refund: 'Refund a payment or capture' }[verb]);
    if (verb !== 'cancel') sub.option('--amount <amount>', `amount to ${verb} (default: all)`);
    sub
      .addHelpText('after', `\nExamples:\n  $ paylink payment ${verb} 7a9d...${verb === 'cancel' ? '' : `\n  $ paylink payment ${verb} 7a9d... --amount 5`}`)
      .action((id: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.paymentFollowUp(verb, id, cmd.opts(), ctx)));
  }
  registerList(payment, 'payment', PAYMENT_STATES, run);
}

function registerToken(program: Command, run: Runner): void {
  const load = () => import('./commands/token.js');
  const token = program
    .command('token')
    .description('Saved card tokens: create, read, list')
    .addHelpText('after', '\nExamples:\n  $ paylink token create --card 5555555555554444\n  $ paylink token get <token> --json');
  token
    .command('create')
    .description('Save a card as a token (the approve test card unless told otherwise)')
    .option('--card <number>', 'card number')
    .option('--outcome <name>', `test-card outcome the token replays: ${OUTCOME_NAMES.join(', ')}`)
    .option('--brand <id|name>', 'card brand id or name (default: from the card number); a token saves a card, so bank and wallet brands are refused')
    .option('--expiry-month <mm>', 'default 12')
    .option('--expiry-year <yyyy>', 'default: three years ahead')
    .option('--holder <name>', 'card holder name (default Test Customer)')
    .option('--customer <json>', 'customer data to keep with the token, as JSON')
    .addHelpText('after', '\nExamples:\n  $ paylink token create\n  $ paylink token create --card 5555555555554444 --json | jq -r .body.token')
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.tokenCreate(cmd.opts(), ctx)));
  token
    .command('get <token>')
    .description('Read a token')
    .addHelpText('after', '\nExamples:\n  $ paylink token get 5d0c...')
    .action((value: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.tokenGet(value, ctx)));
  token
    .command('list')
    .description(
      'List the newest saved card tokens of the business: card (last four digits), expiry, the outcome it replays, the customer id it is keyed by (sandbox only)',
    )
    .option('--tracking-code <code>', 'only this tracking code')
    .option('--customer <id>', 'only the tokens saved for this customer id (customer.customerId, what a one-click checkout offers)')
    .option('--since <time>', 'only created since a date-time (2030-01-01T00:00:00Z) or a duration back from now (1h, 2d)', parseSince)
    .option('-n, --limit <n>', 'how many, newest first (1 to 200)', parseListLimit, 20)
    .option('--page <n>', 'which page of --limit items, 1 the newest: --page 2 shows the ones after them', parsePage)
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink token list\n  $ paylink token list --customer cust-42\n  $ paylink --business-id shop-1 token list --since 1h --json',
    )
    .action((options: { trackingCode?: string; customer?: string; since?: string; limit: number; page?: number }, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/list.js'),
        (m, ctx) => m.listTokens(options, ctx),
      ),
    );
}

function registerCompletion(program: Command, run: Runner): void {
  program
    .command('completion <shell>')
    .description('Print a shell completion script (bash, zsh or fish)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink completion bash > ~/.local/share/bash-completion/completions/paylink\n  $ eval "$(paylink completion zsh)"\n  $ paylink completion fish > ~/.config/fish/completions/paylink.fish',
    )
    .action((shell: string, _o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/completion.js'),
        (m, ctx) => {
          const script = m.completionScript(program, shell);
          // --json keeps its promise of one JSON document: the script as a string in it.
          if (ctx.ui.options.json) ctx.ui.json({ shell, script });
          else ctx.ui.streams.stdout.write(script);
        },
        { connection: false },
      ),
    );
}

/** `env` and `doctor`: the sandbox at the provider's own addresses (docs/drop-in.md). */
function registerDropIn(program: Command, run: Runner): void {
  program
    .command('env')
    .description(
      "Print the shell lines that send a process through this folder's sandbox proxy as the provider's hosts (proxy, CA bundle, PHP ini, Chromium options)",
    )
    .addHelpText('after', '\nExamples:\n  $ eval "$(paylink env)"\n  $ paylink env --json | jq -r .chromium.args[]')
    .action((_o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/env.js'),
        (m, ctx) => m.envCommand(ctx.ui, ctx.env),
        { connection: false },
      ),
    );
  program
    .command('doctor')
    .description(
      'Check the drop-in setup from this shell: sandbox, proxy, the authority trusted by curl, PHP and Node, provider hosts in the hosts file; says what to fix',
    )
    .addHelpText('after', '\nExamples:\n  $ paylink doctor\n  $ eval "$(paylink env)" && paylink doctor --json')
    .action((_o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/doctor.js'),
        (m, ctx) => m.doctor(ctx.ui, { env: ctx.env }),
        { connection: false },
      ),
    );
}

function registerVersion(program: Command, run: Runner): void {
  program
    .command('version')
    .description('Print the versions of the CLI, the API, the browser library and Node, and whether a sandbox answers')
    .addHelpText('after', '\nExamples:\n  $ paylink version\n  $ paylink version --json')
    .action((_o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/version.js'),
        (m, ctx) => m.version(ctx),
      ),
    );
}

function registerClock(program: Command, run: Runner): void {
  const load = () => import('./commands/clock.js');
  const clock = program
    .command('clock')
    .description('Show or move the sandbox clock (expiry of links and checkouts follows it)')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink clock\n  $ paylink clock advance 31m\n  $ paylink clock set 2030-01-01T00:00:00Z --freeze\n  $ paylink clock reset',
    )
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.runClock(ctx.admin, ctx.ui)));
  clock
    .command('advance <duration>')
    .description('Move the clock forward: 31m, 2h, 1d, PT31M, or milliseconds (negative to go back)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink clock advance 31m      # a fresh checkout now answers 4 Timeout\n  $ paylink clock advance 1d --json\n  $ paylink clock advance -- -2h   # back two hours',
    )
    .action((duration: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.runClock(ctx.admin, ctx.ui, { advance: m.parseClockAdvance(duration) })));
  clock
    .command('set <iso>')
    .description('Set the clock to an ISO 8601 date-time; it keeps running unless --freeze')
    .option('--freeze', 'stop the clock at that time')
    .addHelpText('after', '\nExamples:\n  $ paylink clock set 2030-01-01T00:00:00Z\n  $ paylink clock set 2030-01-01T00:00:00Z --freeze')
    .action((iso: string, options: { freeze?: boolean }, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.runClock(ctx.admin, ctx.ui, { set: m.parseClockTime(iso), freeze: options.freeze === true })),
    );
  clock
    .command('reset')
    .description('Back to the wall clock')
    .addHelpText('after', '\nExamples:\n  $ paylink clock reset')
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.runClock(ctx.admin, ctx.ui, { reset: true })));
}

function registerLogs(program: Command, run: Runner): void {
  program
    .command('logs')
    .description("Show the sandbox's request log and its webhook deliveries (card data masked); --follow streams new ones")
    .option('-f, --follow', 'keep printing requests as they arrive')
    .option('--path <text>', 'only requests whose path contains this text')
    .option('--status <code>', 'only this status (402) or class (4xx)', parseStatus)
    .option('--business <id>', 'only requests of this business id')
    .option('--method <method>', 'only this HTTP method')
    .option('-n, --limit <n>', 'how many of the newest requests to show first', parseLimit, 50)
    .option('--bodies', 'print request and response bodies too')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink logs\n  $ paylink logs --follow --status 4xx\n  $ paylink logs --path paymentlinks --business shop-1 --json\n  $ paylink logs --path http://   # only webhook deliveries (their path is the receiver URL)',
    )
    .action(
      (options: { follow?: boolean; path?: string; status?: string; business?: string; method?: string; limit: number; bodies?: boolean }, cmd: Command) =>
        run(
          cmd,
          () => import('./commands/logs.js'),
          (m, ctx) =>
            m.logsUntilInterrupted(ctx.admin, ctx.ui, {
              path: options.path,
              status: options.status,
              businessId: options.business,
              method: options.method,
              limit: options.limit,
              follow: options.follow,
              bodies: options.bodies,
            }),
        ),
    );
}

function registerAdvise(program: Command, run: Runner): void {
  program
    .command('advise')
    .description("What your integration gets wrong: the advisor's findings over the sandbox's traffic (docs/advisor.md)")
    .option('--business <id>', 'only findings of this business id (default: every business)')
    .option('--since <duration>', 'only traffic of the last 10m, 2h, 1d (default: all the request log holds)')
    .option('--fail-on <severity>', 'exit 3 when a finding of this severity or worse exists: warning or error')
    .option('--junit <file>', 'write a JUnit XML report, one test case per check')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      "\nExamples:\n  $ paylink advise\n  $ paylink advise --business shop-1 --since 10m\n  $ paylink advise --fail-on error --junit advisor.xml\n  $ paylink advise --json | jq '.findings[].message'",
    )
    .action((options: { business?: string; since?: string; failOn?: string; junit?: string }, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/advise.js'),
        (m, ctx) => m.advise(ctx.admin, ctx.ui, options),
      ),
    );
}

function registerReset(program: Command, run: Runner): void {
  program
    .command('reset')
    .description("Delete everything in the sandbox (links, checkouts, payments, tokens, request log), or one business's data")
    .option('-y, --yes', 'do not ask (for scripts and CI)')
    .option('--business <id>', "delete only this business's data; other businesses stay as they are")
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      "\nExamples:\n  $ paylink reset\n  $ paylink reset --yes\n  $ paylink reset --business worker-3 --yes   # one test worker's data only",
    )
    .action((options: { yes?: boolean; business?: string }, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/reset.js'),
        (m, ctx) => m.runReset(ctx.admin, ctx.ui, { yes: options.yes, business: options.business }),
      ),
    );
}

function registerWait(program: Command, run: Runner): void {
  program
    .command('wait')
    .description("Wait until a sandbox answers (this folder's, or --base-url): exit 0 then, 4 after --timeout (default 30s)")
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      '\nHere --timeout is the whole wait: 30s, 500ms, 2m or seconds.\n\nExamples:\n  $ paylink sandbox --db :memory: & paylink wait\n  $ paylink wait --timeout 60s --base-url http://127.0.0.1:19000',
    )
    .action((_o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/wait.js'),
        (m, ctx) => m.runWait(ctx.ui, cmd.optsWithGlobals(), ctx.env),
        { connection: false },
      ),
    );
}

function registerSnapshot(program: Command, run: Runner): void {
  const load = () => import('./commands/snapshot.js');
  const snapshot = program
    .command('snapshot')
    .description('Save and restore the whole sandbox state (links, payments, tokens, events, clock, request log)')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink snapshot save seeded\n  $ paylink snapshot restore seeded\n  $ paylink snapshot list\n  $ paylink snapshot delete seeded',
    );
  snapshot
    .command('save <name>')
    .description('Save the state now under a name (replaces a snapshot of that name)')
    .addHelpText('after', '\nExamples:\n  $ paylink fixtures load fixtures/*.json && paylink snapshot save seeded')
    .action((name: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.snapshotSave(ctx.admin, ctx.ui, m.parseSnapshotName(name))));
  snapshot
    .command('restore <name>')
    .description('Put the saved state back: everything written since the save is gone')
    .addHelpText('after', '\nExamples:\n  $ paylink snapshot restore seeded')
    .action((name: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.snapshotRestore(ctx.admin, ctx.ui, m.parseSnapshotName(name))));
  snapshot
    .command('list')
    .description('List the saved snapshots')
    .addHelpText('after', '\nExamples:\n  $ paylink snapshot list\n  $ paylink snapshot list --json')
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.snapshotList(ctx.admin, ctx.ui)));
  snapshot
    .command('delete <name>')
    .description('Delete a saved snapshot')
    .addHelpText('after', '\nExamples:\n  $ paylink snapshot delete seeded')
    .action((name: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.snapshotDelete(ctx.admin, ctx.ui, m.parseSnapshotName(name))));
}

function registerFixtures(program: Command, run: Runner): void {
  const fixtures = program
    .command('fixtures')
    .description('Seed a sandbox from fixture files (docs/fixtures.md)')
    .addHelpText('after', '\nExamples:\n  $ paylink fixtures load fixtures/paid-link.json\n  $ paylink fixtures load fixtures/*.json --json');
  fixtures
    .command('load <files...>')
    .description('Run fixture files against the sandbox and print step name -> id')
    .option('--admin-token <token>', 'admin token for clock steps on a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)')
    .addHelpText('after', '\nExamples:\n  $ paylink fixtures load fixtures/paid-link.json\n  $ paylink fixtures load fixtures/*.json --json')
    .action((files: string[], _o, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/fixtures.js'),
        (m, ctx) => m.fixturesLoad(files, ctx),
      ),
    );
}

function registerWebhooks(program: Command, run: Runner): void {
  const load = () => import('./commands/webhooks.js');
  const webhooks = program
    .command('webhooks')
    .description('Webhook endpoints of a business: add, list, remove (docs/webhooks.md)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink webhooks add http://localhost:3000/webhooks\n  $ paylink webhooks list\n  $ paylink webhooks remove <hookId>',
    );
  webhooks
    .command('add <url>')
    .description('Register an endpoint for the business (--business-id): every payment event is POSTed to it, signed')
    .option('--events <types>', 'only these event types: Transaction.Create, Transaction.Update (or create, update), repeatable or comma-separated', collect)
    .option('--secret <secret>', "the endpoint's own signing secret (default: the sandbox webhook secret)")
    .option('--fault <name>', 'duplicate, out-of-order, bad-signature or tampered-body, repeatable or comma-separated', collect)
    .option('--delay <ms>', 'hold each delivery this long first (500ms, 2s)')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink webhooks add http://localhost:3000/webhooks\n  $ paylink --business-id shop-1 webhooks add https://shop.example/hooks --events update\n  $ paylink webhooks add http://localhost:3000/webhooks --fault bad-signature   # your app must refuse these',
    )
    .action((url: string, options: { events?: string[]; secret?: string; fault?: string[]; delay?: string }, cmd: Command) =>
      run(cmd, load, (m, ctx) =>
        m.webhooksAdd(ctx.admin, ctx.ui, url, {
          businessId: ctx.connection.businessId,
          events: m.parseEventTypes(options.events),
          secret: options.secret,
          faults: m.parseFaults(options.fault),
          delayMs: m.parseDelay(options.delay),
        }),
      ),
    );
  webhooks
    .command('list')
    .description('List the endpoints (secrets as their last four characters)')
    .option('--business <id>', 'only endpoints of this business id')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink webhooks list\n  $ paylink webhooks list --business shop-1 --json')
    .action((options: { business?: string }, cmd: Command) => run(cmd, load, (m, ctx) => m.webhooksList(ctx.admin, ctx.ui, { businessId: options.business })));
  webhooks
    .command('remove <hookId>')
    .description('Remove an endpoint; its pending deliveries are cancelled')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink webhooks remove 2fcc232f-fa1d-4c23-97aa-e099dc6409d6')
    .action((hookId: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.webhooksRemove(ctx.admin, ctx.ui, hookId)));
}

function registerEvents(program: Command, run: Runner): void {
  const load = () => import('./commands/webhooks.js');
  const events = program
    .command('events')
    .description('Webhook events and their deliveries: list, show, resend (docs/webhooks.md)')
    .addHelpText('after', '\nExamples:\n  $ paylink events list\n  $ paylink events show <eventId>\n  $ paylink events resend <eventId>');
  events
    .command('list')
    .description('The newest events, each with how its deliveries went (FINDING: an endpoint accepted a forged event)')
    .option('--payment <id>', 'only events of this payment')
    .option('--business <id>', 'only events of this business id')
    .option('--type <type>', 'Transaction.Create or Transaction.Update (create, update)')
    .option('-n, --limit <n>', 'how many of the newest', parseLimit, 20)
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink events list\n  $ paylink events list --payment 7a9d... --json')
    .action((options: { payment?: string; business?: string; type?: string; limit: number }, cmd: Command) =>
      run(cmd, load, (m, ctx) =>
        m.eventsList(ctx.admin, ctx.ui, {
          paymentId: options.payment,
          businessId: options.business,
          type: m.parseEventTypes(options.type ? [options.type] : undefined, '--type')?.[0],
          limit: options.limit,
        }),
      ),
    );
  events
    .command('show <eventId>')
    .description('An event: its exact body and every attempt of every delivery (time, status, latency, answer)')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink events show 738c171c-d901-4712-8acc-898afc4d7d33')
    .action((id: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.eventsShow(ctx.admin, ctx.ui, id)));
  events
    .command('send')
    .description('Sign an arbitrary payload exactly as real events are signed and deliver it through the same outbox (recorded, retried, visible)')
    .option('--type <type>', 'Transaction.Create or Transaction.Update (create, update)')
    .option('--payload <file>', "JSON file with the event's Payload (a payment envelope), or - for standard input")
    .option('--to <url>', 'deliver to this URL only (signed with the sandbox webhook secret)')
    .option('--business <id>', "deliver to this business's endpoints (default: --business-id)")
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink events send --type Transaction.Update --payload payload.json --to http://localhost:3000/webhooks\n  $ paylink events send --type update --payload payload.json --business shop-1\n  $ paylink events show <eventId>        # how each attempt went',
    )
    .action((options: { type?: string; payload?: string; to?: string; business?: string }, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/events-send.js'),
        (m, ctx) => m.eventsSend(ctx.admin, ctx.ui, options, ctx.connection.businessId),
      ),
    );
  events
    .command('resend <eventId>')
    .description('Deliver an event again, to every destination or to one endpoint')
    .option('--hook <hookId>', 'only to this endpoint')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink events resend 738c171c-...\n  $ paylink events resend 738c171c-... --hook 2fcc232f-...')
    .action((id: string, options: { hook?: string }, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.eventsResend(ctx.admin, ctx.ui, id, { hookId: options.hook })),
    );
}

function registerListen(program: Command, run: Runner): void {
  program
    .command('listen')
    .description("Forward the sandbox's webhook events, signed, to a local URL; one line per delivery (Ctrl-C stops)")
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks')
    .option('--events <types>', 'only these event types (create, update), repeatable or comma-separated', collect)
    .option('--business <id>', 'only events of this business id (default: the --business-id given, else every business)')
    .option('--fault <name>', 'duplicate, out-of-order, bad-signature or tampered-body, repeatable or comma-separated', collect)
    .option('--delay <ms>', 'hold each event this long before forwarding it (500ms, 2s)')
    .option('--header <name>', "signature header name (default: the sandbox's)")
    .option(
      '--since <time|eventId>',
      'replay from an event (it and every later one) or a time (10m, 2030-01-01T12:00:00Z) instead of resuming from the saved cursor',
    )
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      `
Resumes where the last run for the same --forward-to stopped (its cursor is kept in .paylink/listen/),
retries a failed forward (0.25, 0.5, 1, 2, 4, 8 s) before moving on, and reconnects when the sandbox
goes away. At least once, in order: make your handler idempotent on the event's Id. Prints the signing
secret the forwarded deliveries are signed with when it starts (on stderr with --json).

Examples:
  $ paylink listen --forward-to http://localhost:3000/webhooks
  $ paylink listen --forward-to http://localhost:3000/webhooks --since 10m
  $ paylink listen --forward-to http://localhost:3000/webhooks --events update --json
  $ paylink listen --forward-to http://localhost:3000/webhooks --fault bad-signature
  $ paylink listen --base-url https://sandbox.team.example --admin-token $TOKEN --forward-to http://localhost:3000/webhooks`,
    )
    .action(
      (options: { forwardTo: string; events?: string[]; business?: string; fault?: string[]; delay?: string; header?: string; since?: string }, cmd: Command) =>
        run(
          cmd,
          () => Promise.all([import('./commands/listen.js'), import('./commands/webhooks.js')]),
          ([m, w], ctx) =>
            m.listenUntilInterrupted(ctx.admin, ctx.ui, {
              forwardTo: options.forwardTo,
              events: w.parseEventTypes(options.events),
              // `--business`, else a business id given at all (--business-id, PAYLINK_BUSINESS_ID, the config
              // file) scopes it as the other commands are scoped; with none, every business's events.
              businessId: options.business ?? (ctx.connection.sources?.businessId === 'default' ? undefined : ctx.connection.businessId),
              faults: w.parseFaults(options.fault),
              delayMs: w.parseDelay(options.delay),
              header: options.header,
              since: options.since,
              cursorDir: process.cwd(),
            }),
        ),
    );
}

function registerFaults(program: Command, run: Runner): void {
  const load = () => import('./commands/faults.js');
  const faults = program
    .command('faults')
    .description("Make the sandbox's API fail on purpose: slow, failing, silent, or taking the payment and timing out (docs/faults.md)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ paylink faults add --method POST --path payments --kind ghost --times 1\n  $ paylink faults list\n  $ paylink faults remove f1\n  $ paylink faults clear',
    );
  faults
    .command('add')
    .description('Add a rule: requests it matches are faulted (the first matching rule that fires applies)')
    .option(
      '--kind <kind>',
      'status (answer an error, do nothing), latency (answer late), timeout (hold, no answer, do nothing), reset (drop the connection, do nothing), ghost (do it, then timeout or reset)',
    )
    .option('--method <method>', 'only GET or POST (default: any)')
    .option('--path <pattern>', `path under ${API_BASE}/: payments, payments/*, payments/*/refund, ** (default: the whole API)`)
    .option('--business <id>', 'only requests of this business id')
    .option('--brand <id|name>', "only requests of this brand (transaction.brandId, or the card number's brand)")
    .option('--amount <amount|range>', 'only this amount (13.37) or range (10..20, 10.., ..20)')
    .option('--status <code>', 'status kind: 401, 403, 429, 500, 502, 503 or 504 (default 503)')
    .option('--latency <ms|range>', 'latency kind: 300, 300ms, 2s, or a range 200-800')
    .option('--hold <duration>', 'timeout and ghost kinds: how long the connection is held at most (default 60s, at most 300s)')
    .option('--as <mode>', 'ghost kind: timeout (default) or reset')
    .option('--probability <p>', 'fault each matching request with this probability (0.3); default always')
    .option('--times <n>', 'fault only the next n matching requests')
    .option('--include-paylink', "apply to requests of paylink's own tools too (they are spared otherwise)")
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      `
Examples:
  $ paylink faults add --method POST --path payments --kind ghost --times 1     # the payment is made, the answer never comes
  $ paylink faults add --kind status --status 503 --probability 0.3              # 3 requests in 10 answer 503 / -3 Failed, retry
  $ paylink faults add --path 'payments/*' --method GET --kind latency --latency 200-800
  $ paylink faults add --method POST --path payments --kind timeout --hold 30s --business shop-1
  $ paylink faults add --method POST --path payments --kind reset --brand visa --amount 13.37`,
    )
    .action((options: Omit<import('./commands/faults.js').FaultAddFlags, 'includePaylink'> & { includePaylink?: boolean }, cmd: Command) =>
      run(cmd, load, (m, ctx) => m.faultsAdd(ctx.admin, ctx.ui, options)),
    );
  faults
    .command('list')
    .description('List the rules in the order they apply, with how often each fired')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink faults list\n  $ paylink faults list --json')
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.faultsList(ctx.admin, ctx.ui)));
  faults
    .command('remove <id>')
    .description('Remove a rule')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink faults remove f1')
    .action((id: string, _o, cmd: Command) => run(cmd, load, (m, ctx) => m.faultsRemove(ctx.admin, ctx.ui, id)));
  faults
    .command('clear')
    .description('Remove every rule')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText('after', '\nExamples:\n  $ paylink faults clear')
    .action((_o, cmd: Command) => run(cmd, load, (m, ctx) => m.faultsClear(ctx.admin, ctx.ui)));
}

function registerApi(program: Command, run: Runner): void {
  program
    .command('api <method> <path>')
    .description('Send any request to the API (GET or POST) with the base URL, credentials and business id filled in, and print the answer')
    .option(
      '-d, --data <json|@file|path=value>',
      'POST body: JSON, @file.json, or @- for standard input (header.businessId is filled in unless given); repeatable path=value sets one field (body.transaction.amount=10; numbers and true/false typed), for a GET one query parameter',
      collect,
    )
    .addHelpText(
      'after',
      `
The path is under ${API_BASE}/ unless it starts with /gateway/. A GET gets businessId in its query and a
POST header.businessId in its body, unless given. -d path=value sets one field of the POST's body (dots
nest: body.transaction.amount=10; 10, 12.5, true and false are typed as JSON, "10" in quotes stays text),
on top of a --data document if one is given; for a GET, one query parameter. Exit 0 for a 2xx answer, 3
otherwise (the answer is printed either way).

Examples:
  $ paylink api GET payments/7a9d...
  $ paylink api GET 'payments?trackingCode=order-1001'
  $ paylink api POST payments --data '{"action":"payment","body":{"transaction":{"amount":10,"currencyCode":"EUR","trackingCode":"order-0001"},"card":{"number":"4111111111111111","cvv":"123","expiryMonth":"12","expiryYear":"2030","holderName":"Ada"}}}'
  $ paylink api POST payments/7a9d.../refund --data '{"body":{"transaction":{"amount":2}}}'
  $ paylink api POST payments/7a9d.../refund -d body.transaction.amount=2
  $ paylink api GET payments -d trackingCode=order-1001
  $ paylink api POST paymentlinks --data @link.json --json | jq -r .body.link.linkId`,
    )
    .action((method: string, path: string, options: { data?: string[] }, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/api.js'),
        (m, ctx) => m.api(method, path, options, ctx),
      ),
    );
}

function registerTrigger(program: Command, run: Runner): void {
  program
    .command('trigger [scenario]')
    .description('Make the sandbox produce a situation and its webhooks through the API, as a merchant and its customer would (--list for the scenarios)')
    .option('--list', 'describe every scenario')
    .option('--business <id>', 'the business to act as (default: --business-id)')
    .option('--notify-url <url>', "where the scenario's webhooks go (body.transaction.notifyUrl of every creation)")
    .option('--amount <amount>', 'amount of the payment (default 10)')
    .option('--currency <code>', 'currency (default EUR)')
    .option('--brand <id|name>', 'card brand of card scenarios, or the bank or wallet brand of bank ones (ideal, sofort, paypal...)')
    .option('--set <path=value>', 'set any field of every request sent: body.transaction.description="Order 7" (repeatable)', collect)
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .addHelpText(
      'after',
      `
Examples:
  $ paylink trigger --list
  $ paylink trigger payment.approved --notify-url http://localhost:3000/webhooks
  $ paylink trigger refund.partial --amount 25 --currency USD --json
  $ paylink trigger bank.approved --brand sofort
  $ paylink trigger 3ds.approved --brand mastercard --set body.transaction.descriptor=SHOP`,
    )
    .action((scenario: string | undefined, options: import('./commands/trigger.js').TriggerFlags, cmd: Command) =>
      run(
        cmd,
        () => import('./commands/trigger.js'),
        (m, ctx) => m.trigger(scenario, options, ctx),
      ),
    );
}
