/**
 * Applying API faults to a connection (docs/faults.md): reading what a rule may match on from the request,
 * delaying an answer, holding a connection until the client gives up, and dropping one. Which rule fires is
 * services/faults.ts's; what a rule means is domain/faults.ts's.
 */
import { realTimers, type Timers } from '../domain/timers.js';
import type { Socket } from 'node:net';
import type { FaultRequestFacts } from '../domain/faults.js';
import { normalizeCardNumber } from '../domain/cards.js';
import { detectBrand } from '../domain/test-cards.js';
import { isObject, type Json, type JsonObject } from './fields.js';

function numberOf(value: Json | undefined): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/**
 * The business, brand and amount of an API request, as far as it says them: `header.businessId` and
 * `body.transaction` of a JSON body (the brand from `brandId`, else from `body.card.number`), or the
 * `businessId` query parameter. Nothing here is validated: the handler still judges the request.
 */
export function requestFacts(body: JsonObject | undefined, query: URLSearchParams): Pick<FaultRequestFacts, 'businessId' | 'brandId' | 'amount'> {
  const facts: Pick<FaultRequestFacts, 'businessId' | 'brandId' | 'amount'> = {};
  const queryBusiness = query.get('businessId');
  if (queryBusiness) facts.businessId = queryBusiness;
  if (body === undefined) return facts;
  const header = body.header;
  if (isObject(header) && (typeof header.businessId === 'string' || typeof header.businessId === 'number')) facts.businessId = String(header.businessId);
  const inner = isObject(body.body) ? body.body : undefined;
  const transaction = inner !== undefined && isObject(inner.transaction) ? inner.transaction : undefined;
  const amount = numberOf(transaction?.amount);
  if (amount !== undefined) facts.amount = amount;
  const brandId = numberOf(transaction?.brandId);
  if (brandId !== undefined) facts.brandId = brandId;
  else if (inner !== undefined && isObject(inner.card) && typeof inner.card.number === 'string') {
    const detected = detectBrand(normalizeCardNumber(inner.card.number));
    if (detected !== undefined) facts.brandId = detected;
  }
  return facts;
}

/**
 * Connections a fault holds or delays, so that stopping the sandbox ends them at once instead of waiting
 * for the hold (up to five minutes) to pass.
 */
export class HeldConnections {
  private readonly stopping = new AbortController();

  constructor(private readonly timers: Timers = realTimers) {}

  /** Ends every hold and delay now. */
  releaseAll(): void {
    this.stopping.abort();
  }

  /** Resolves after `ms`, or at once when the sandbox stops. */
  delay(ms: number): Promise<void> {
    if (this.stopping.signal.aborted || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.timers.clearTimeout(timer);
        this.stopping.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.timers.setTimeout(done, ms);
      this.stopping.signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Holds the connection without answering until the client closes it or `ms` pass (or the sandbox
   * stops), then closes it without an answer. Resolves with how it ended.
   */
  hold(socket: Socket, ms: number): Promise<'client-gave-up' | 'held-to-the-limit'> {
    return new Promise((resolve) => {
      let ended = false;
      const end = (how: 'client-gave-up' | 'held-to-the-limit') => {
        if (ended) return;
        ended = true;
        this.timers.clearTimeout(timer);
        socket.off('close', onClose);
        this.stopping.signal.removeEventListener('abort', onStop);
        if (!socket.destroyed) socket.destroy();
        resolve(how);
      };
      const onClose = () => end('client-gave-up');
      const onStop = () => end('held-to-the-limit');
      const timer = this.timers.setTimeout(onStop, ms);
      socket.once('close', onClose);
      this.stopping.signal.addEventListener('abort', onStop, { once: true });
      if (socket.destroyed || this.stopping.signal.aborted) end(socket.destroyed ? 'client-gave-up' : 'held-to-the-limit');
    });
  }

  /** Drops the connection with a TCP reset, so the client sees ECONNRESET with no answer at all. */
  reset(socket: Socket): void {
    if (socket.destroyed) return;
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
  }
}
