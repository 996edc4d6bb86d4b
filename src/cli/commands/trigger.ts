/**
 * `paylink trigger <scenario>`: makes the sandbox produce a situation and its webhooks through the API, the
 * way a merchant's server and its customer would (trigger/scenarios.ts), then prints the ids it made and
 * the events they fired. `paylink trigger --list` describes every scenario.
 */
import type { Args, Options } from '../command-spec.js';
import type { trigger as spec } from './trigger.spec.js';
import { ApiClient } from '../client.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { parseAmount, parseBrand, parseCurrency, parseHttpUrl } from '../options.js';
import { SCENARIOS, scenarioNamed, type Scenario } from '../trigger/scenarios.js';
import { parseSet, runScenario, type TriggerResult } from '../trigger/run.js';

export type TriggerFlags = Options<typeof spec>;

/** `paylink trigger --list`: every scenario, what it does and the events it makes. */
export function triggerList(ctx: CommandContext): readonly Scenario[] {
  const { ui } = ctx;
  if (ui.options.json) {
    ui.json(SCENARIOS.map((s) => ({ name: s.name, description: s.description, events: s.events })));
    return SCENARIOS;
  }
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  for (const s of SCENARIOS) ui.line(`${s.name.padEnd(width)}  ${s.description} ${ui.color.dim(`(${s.events.join(', ')})`)}`);
  return SCENARIOS;
}

/** `paylink trigger <scenario>`. */
export async function trigger({ scenario: name }: Args<typeof spec>, flags: TriggerFlags, ctx: CommandContext): Promise<TriggerResult | readonly Scenario[]> {
  if (flags.list) return triggerList(ctx);
  if (name === undefined) throw new UsageError('Name a scenario: paylink trigger payment.approved (paylink trigger --list shows them all).');
  const scenario = scenarioNamed(name);
  if (scenario === undefined) throw new UsageError(`Unknown scenario "${name}". Known: ${SCENARIOS.map((s) => s.name).join(', ')}.`);
  const currency = flags.currency === undefined ? undefined : parseCurrency(flags.currency);
  const options = {
    notifyUrl: flags.notifyUrl === undefined ? undefined : parseHttpUrl(flags.notifyUrl, '--notify-url'),
    amount: flags.amount === undefined ? undefined : parseAmount(flags.amount, '--amount', currency),
    currency,
    brandId: flags.brand === undefined ? undefined : parseBrand(flags.brand),
    set: (flags.set ?? []).map(parseSet),
  };
  const connection = ctx.connection;
  const client = new ApiClient({ ...connection, ...(flags.business !== undefined ? { businessId: flags.business } : {}), fetch: ctx.fetch, client: 'trigger' });
  const admin = { ...ctx.admin, client: 'trigger' as const };
  const { ui } = ctx;
  const result = await ui.spin(`Triggering ${scenario.name}`, (spinner) =>
    runScenario(client, admin, scenario, { ...options, onStep: (text) => spinner.text(`${text}...`) }),
  );
  if (ui.options.json) {
    ui.json(result);
    return result;
  }
  ui.heading(`${scenario.name}: ${scenario.description}`);
  for (const [step, id] of Object.entries(result.ids)) ui.field(step, id);
  if (result.events === undefined) {
    ui.warn(`Could not read the events it made: ${result.eventsError ?? 'unknown'}.`);
  } else {
    ui.line();
    for (const e of result.events) {
      const to = e.deliveries.length === 0 ? ui.color.dim('no destination') : e.deliveries.map((d) => `${d.url} ${d.status}`).join(', ');
      ui.line(`  ${e.type.padEnd(18)} ${e.id}  ${(e.action ?? '').padEnd(9)} ${String(e.result ?? '').padStart(3)}  payment ${e.paymentId}  ${to}`);
    }
    if (result.events.length === 0) ui.info('No events: the payments made none (see docs/webhooks.md).');
    else if (result.events.every((e) => e.deliveries.length === 0))
      ui.info('No destination: give --notify-url, or register one with `paylink webhooks add <url>`.');
  }
  return result;
}
