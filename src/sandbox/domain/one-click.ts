/**
 * A one-click checkout's offer in words, as the CLI's status and the dashboard show it (docs/api.md,
 * `body.checkout.oneClick`). Pure.
 */
import type { OneClickRequest } from './records.js';

/** What a one-click checkout asked for: `the saved cards of customer c-1 and tokens t1, t2 (no CVV asked)`. */
export function oneClickSummary(oneClick: Partial<OneClickRequest>, customerId: string | undefined): string {
  const asked: string[] = [];
  if (oneClick.useCustomerTokens === true) asked.push(`the saved cards of customer ${customerId ?? '(no customer id)'}`);
  if (oneClick.tokens !== undefined && oneClick.tokens.length > 0) asked.push(`tokens ${oneClick.tokens.join(', ')}`);
  const text = asked.join(' and ') || 'no saved cards asked for';
  const notes = [oneClick.requireCvv === false ? 'no CVV asked' : undefined, oneClick.threeDSecure === true ? '3-D Secure' : undefined].filter(
    (n): n is string => n !== undefined,
  );
  return notes.length > 0 ? `${text} (${notes.join(', ')})` : text;
}
