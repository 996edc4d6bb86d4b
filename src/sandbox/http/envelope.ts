/**
 * The provider's response envelope `{result, description, header, body}` and the one function that turns
 * an {@link ApiError} into it.
 */
import type { Clock } from '../domain/clock.js';
import type { IdSource } from '../domain/ids.js';
import { ApiError, errorBody } from '../errors.js';
import type { Envelope, EnvelopeHeader, ErrorBody } from '../domain/answers.js';

export type { Envelope, EnvelopeHeader, ErrorBody } from '../domain/answers.js';

/** What the envelope builders need: the clock and the id source. */
export interface EnvelopeContext {
  clock: Clock;
  ids: IdSource;
}

/** A success (or pending) envelope; `requestCode` is added when `withRequestCode` is set. */
export function envelope<B>(ctx: EnvelopeContext, kind: { result: number; description: string }, body: B, withRequestCode = false): Envelope<B> {
  const header: EnvelopeHeader = { requestTimestamp: ctx.clock.nowIso() };
  if (withRequestCode) header.requestCode = ctx.ids.requestCode();
  return { result: kind.result, description: kind.description, header, body };
}

/**
 * {@link envelope} as its JSON text, around a body already serialized (`bodyJson`, kept by the caller for
 * answers that repeat): the same document, key for key, without stringifying the body again.
 */
export function envelopeText(ctx: EnvelopeContext, kind: { result: number; description: string }, bodyJson: string): string {
  return `{"result":${kind.result},"description":${JSON.stringify(kind.description)},"header":{"requestTimestamp":"${ctx.clock.nowIso()}"},"body":${bodyJson}}`;
}

/** The error envelope: `body.error {code, message}` plus any extra body fields, always with a requestCode. */
export function errorEnvelope(ctx: EnvelopeContext, error: ApiError): Envelope<ErrorBody> {
  return {
    result: error.result,
    description: error.description,
    header: { requestTimestamp: ctx.clock.nowIso(), requestCode: ctx.ids.requestCode() },
    body: { ...(error.body ?? {}), error: errorBody(error) },
  };
}
