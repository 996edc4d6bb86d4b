/**
 * `paylink link create|get|cancel`: payment links (spec 4.1-4.3). One API call each; `--json` prints the
 * API's envelope unchanged.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { generateTrackingCode, parseDuration } from '../options.js';
import { callApi, getResource, printResource, reportCreated, resolveCreateInput, type CreateFlags } from './shared.js';

export interface LinkCreateFlags extends CreateFlags {
  duration?: string;
  threeDs?: boolean;
}

/** Creates a payment link; asks for missing values on a TTY. Returns the API envelope. */
export async function linkCreate(flags: LinkCreateFlags, ctx: CommandContext): Promise<any> {
  const duration = flags.duration === undefined ? undefined : parseDuration(flags.duration);
  const input = await resolveCreateInput(flags, ctx.ui);
  const trackingCode = input.trackingCode ?? generateTrackingCode('link');
  const link: Record<string, unknown> = { brandIds: input.brandIds, returnUrl: input.returnUrl, duration: duration ?? 'P1D' };
  if (input.tokenize !== undefined) link.tokenize = input.tokenize;
  if (flags.threeDs) link.threeDSecure = true;
  const { body } = await callApi(ctx, 'Creating the payment link', () =>
    ctx.client.post('/gateway/v3/paymentlinks', {
      body: {
        transaction: { amount: input.amount, currencyCode: input.currencyCode, authorizationMode: input.authorizationMode, trackingCode },
        link,
      },
    }),
  );
  reportCreated(ctx, 'link', body, input.returnUrl);
  return body;
}

/** Reads a link by id or by `--tracking-code`. */
export async function linkGet(id: string | undefined, flags: { trackingCode?: string }, ctx: CommandContext): Promise<any> {
  return getResource(ctx, 'link', id, flags.trackingCode);
}

/** Cancels a READY or PENDING link. */
export async function linkCancel(id: string, ctx: CommandContext): Promise<any> {
  const { body } = await callApi(ctx, 'Cancelling the payment link', () => ctx.client.post(`/gateway/v3/paymentlinks/${encodeURIComponent(id)}/cancel`, {}));
  if (ctx.ui.options.json) ctx.ui.json(body);
  else printResource(ctx.ui, 'link', body, 'Payment link cancelled');
  return body;
}

/** Registers `link create|get|cancel`; `run` wraps each action with the command context. */
export function registerLink(program: Command, run: (cmd: Command, action: (ctx: CommandContext) => Promise<unknown>) => Promise<void>, collect: (v: string, prev: string[] | undefined) => string[]): void {
  const link = program.command('link').description('Create, read and cancel payment links')
    .addHelpText('after', '\nExamples:\n  $ paylink link create --amount 12.50 --currency EUR --return-url http://localhost:3000/return\n  $ paylink link get <linkId>\n  $ paylink link cancel <linkId>');
  link
    .command('create')
    .description('Create a payment link (asks for missing values on a terminal)')
    .option('--amount <amount>', 'amount, e.g. 12.50')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. EUR')
    .option('--brand <id|name>', 'brand offered, repeatable or comma-separated (default: every card brand)', collect)
    .option('--return-url <url>', 'where the customer goes after the form')
    .option('--tracking-code <code>', 'your unique reference (generated when not given)')
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
    .action((_o, cmd: Command) => run(cmd, (ctx) => linkCreate({ ...cmd.opts<LinkCreateFlags>(), threeDs: cmd.opts()['3ds'] === true }, ctx)));
  link
    .command('get [linkId]')
    .description('Read a payment link and its payments, by id or tracking code')
    .option('--tracking-code <code>', 'find the link by its tracking code')
    .addHelpText('after', '\nExamples:\n  $ paylink link get 3f1c...\n  $ paylink link get --tracking-code order-1042 --json')
    .action((id: string | undefined, _o, cmd: Command) => run(cmd, (ctx) => linkGet(id, cmd.opts(), ctx)));
  link
    .command('cancel <linkId>')
    .description('Cancel a READY or PENDING payment link')
    .addHelpText('after', '\nExamples:\n  $ paylink link cancel 3f1c...')
    .action((id: string, _o, cmd: Command) => run(cmd, (ctx) => linkCancel(id, ctx)));
}
