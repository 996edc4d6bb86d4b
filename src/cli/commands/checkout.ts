/**
 * `paylink checkout create|get`: checkouts (spec 4.4-4.5). One API call each; `--json` prints the API's
 * envelope unchanged.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { generateTrackingCode } from '../options.js';
import { callApi, getResource, reportCreated, resolveCreateInput, type CreateFlags } from './shared.js';

/** Creates a checkout (valid 30 minutes); asks for missing values on a TTY. Returns the API envelope. */
export async function checkoutCreate(flags: CreateFlags, ctx: CommandContext): Promise<any> {
  const input = await resolveCreateInput(flags, ctx.ui);
  const trackingCode = input.trackingCode ?? generateTrackingCode('checkout');
  const { body } = await callApi(ctx, 'Creating the checkout', () =>
    ctx.client.post('/gateway/v3/checkouts', {
      body: {
        transaction: { amount: input.amount, currencyCode: input.currencyCode, authorizationMode: input.authorizationMode, trackingCode },
        checkout: { brandIds: input.brandIds, returnUrl: input.returnUrl, tokenize: input.tokenize ?? 'false' },
      },
    }),
  );
  reportCreated(ctx, 'checkout', body, input.returnUrl);
  return body;
}

/** Reads a checkout by id or by `--tracking-code`. */
export async function checkoutGet(id: string | undefined, flags: { trackingCode?: string }, ctx: CommandContext): Promise<any> {
  return getResource(ctx, 'checkout', id, flags.trackingCode);
}

export function registerCheckout(program: Command, run: (cmd: Command, action: (ctx: CommandContext) => Promise<unknown>) => Promise<void>, collect: (v: string, prev: string[] | undefined) => string[]): void {
  const checkout = program.command('checkout').description('Create and read checkouts (optionally saving the card as a token)')
    .addHelpText('after', '\nExamples:\n  $ paylink checkout create --amount 20 --currency EUR --tokenize inquire --return-url http://localhost:3000/return\n  $ paylink checkout get <checkoutId> --json');
  checkout
    .command('create')
    .description('Create a checkout, valid for 30 minutes (asks for missing values on a terminal)')
    .option('--amount <amount>', 'amount, e.g. 12.50')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. EUR')
    .option('--brand <id|name>', 'brand offered, repeatable or comma-separated (default: every card brand)', collect)
    .option('--return-url <url>', 'where the customer goes after the form')
    .option('--tracking-code <code>', 'your unique reference (generated when not given)')
    .option('--tokenize <mode>', 'false | inquire | true (save the card as a token)', 'false')
    .option('--authorize', 'authorize only (authorizationMode authorize)')
    .addHelpText(
      'after',
      `
Examples:
  $ paylink checkout create --amount 20 --currency EUR --return-url https://shop.example/return
  $ paylink checkout create --amount 20 --currency EUR --tokenize inquire --return-url http://localhost:3000/done --json`,
    )
    .action((_o, cmd: Command) => run(cmd, (ctx) => checkoutCreate(cmd.opts<CreateFlags>(), ctx)));
  checkout
    .command('get [checkoutId]')
    .description('Read a checkout and its payments, by id or tracking code')
    .option('--tracking-code <code>', 'find the checkout by its tracking code')
    .addHelpText('after', '\nExamples:\n  $ paylink checkout get 9b2e...\n  $ paylink checkout get --tracking-code order-1042 --json')
    .action((id: string | undefined, _o, cmd: Command) => run(cmd, (ctx) => checkoutGet(id, cmd.opts(), ctx)));
}
