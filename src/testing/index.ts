/**
 * `paylink/testing`: helpers for a merchant's own test suite (vitest, jest, node:test, Playwright Test):
 * a sandbox per test file, a webhook receiver that verifies signatures, and a hand for the hosted page.
 * docs/testing.md shows the patterns. Its public types depend on nothing but Node's.
 */
export { createTestSandbox, SandboxRequestError } from './sandbox.js';
export type {
  ApiAnswer,
  ApiClient,
  CardInput,
  CheckoutBody,
  CheckoutInput,
  LinkBody,
  LinkInput,
  PaymentBody,
  PaymentInput,
  Redirect,
  TestSandbox,
  TestSandboxOptions,
  TokenBody,
  TransactionInput,
} from './sandbox.js';
export { verifyDelivery, webhookReceiver, WebhookVerificationError } from './webhooks.js';
export type { EventMatch, ReceivedEvent, WebhookReceiver, WebhookReceiverOptions } from './webhooks.js';
export { payOnHostedPage } from './hosted-page.js';
export type { FrameLike, LocatorLike, OutcomeName, PageLike, PayOnHostedPageOptions, PayOnHostedPageResult } from './hosted-page.js';
