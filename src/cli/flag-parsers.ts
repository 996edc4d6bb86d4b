/**
 * The option parsers the command registry hands to commander when it declares the commands: few imports,
 * so `paylink --help` loads none of the brand, money and card tables that `options.ts` needs.
 */
import { parseClockStep } from '../sandbox/domain/clock.js';
import { UsageError } from './errors.js';

/** `paylink logs --limit`: 1 to 1000. */
export function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError(`--limit: expected a whole number from 1 to 1000, got "${value}".`);
  return n;
}

/** `paylink link list --limit` (and checkout, payment): 1 to 200, the sandbox's page size. */
export function parseListLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new UsageError(`--limit: expected a whole number from 1 to 200, got "${value}".`);
  return n;
}

/** `--page`: which page of a list, 1 the newest, as far as the sandbox pages (a million). */
export function parsePage(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new UsageError(`--page: expected a whole number from 1 to 1000000, got "${value}".`);
  return n;
}

/** `--since`: an ISO 8601 date-time, or a duration back from the sandbox's now (`1h`, `2d`, `PT30M`). */
export function parseSince(value: string): string {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(Date.parse(text))) return text;
  const back = parseClockStep(text);
  if (back === undefined || back < 0 || /^\d+$/.test(text))
    throw new UsageError(`--since: expected a date-time such as 2030-01-01T00:00:00Z or a duration back from now such as 1h or 2d, got "${value}".`);
  return text;
}

/** `--status` of the list commands: one of `states` (the kind's lifecycle states), upper-cased. */
export function parseState(value: string, states: readonly string[]): string {
  // As the sandbox reads it: capitals, letters only (declined-retry is DECLINEDRETRY).
  const text = value.toUpperCase().replace(/[^A-Z]+/g, '');
  if (!states.includes(text)) throw new UsageError(`--status: expected one of ${states.join(', ')}, got "${value}".`);
  return text;
}

/** `paylink logs --status`: a status (`402`) or a class (`4xx`), lower-cased. */
export function parseStatus(value: string): string {
  if (!/^([1-5]\d\d|[1-5]xx)$/i.test(value)) throw new UsageError(`--status: expected a status such as 402 or a class such as 4xx, got "${value}".`);
  return value.toLowerCase();
}

/** Repeatable option values (`--brand visa --brand mc`, `--seed a.json --seed b.json`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
