/**
 * The fault stage of the request pipeline (app.ts): everything an API fault does to a request, in one
 * place (docs/faults.md). Which rule fires is services/faults.ts's, what a rule means is domain/faults.ts's;
 * here, per request: picking the rule (reading the body only when a rule could match it), answering with a
 * status before the handler, never calling the handler (timeout, reset), and after the handler withholding
 * the answer (timeout, reset, ghost) or delaying it (latency).
 */
import type { Timers } from '../domain/timers.js';
import type { Socket } from 'node:net';
import { faultError } from '../errors.js';
import { holdOf, latencyOf } from '../domain/faults.js';
import type { ObservedRequest } from '../domain/observed.js';
import type { FaultService, FiredFault } from '../services/faults.js';
import { HeldConnections, requestFacts } from './fault-injection.js';
import type { JsonObject } from './fields.js';
import type { RouteRequest } from './router.js';

/** A fault that fired for one request, with the business the request named. */
export type Fired = FiredFault & { businessId?: string | undefined };

/** What the pipeline does with a request once its fault stage ran. */
export interface FaultStage {
  /** Whether any fault rule is on: when none is, the pipeline skips {@link before} (no promise per request). */
  readonly active: boolean;
  /**
   * Before the handler: picks the fault for an API request (if any rules are on), records it, and throws
   * the status of a `status` fault. Returns the fault, whose {@link runsHandler} says whether the handler runs.
   */
  before(request: RouteRequest, observed: ObservedRequest): Promise<Fired | undefined>;
  /** Whether the handler runs under this fault: not for those that never answer (timeout, reset). */
  runsHandler(fired: Fired | undefined): boolean;
  /**
   * After the answer was made: withholds it (timeout, reset, ghost: the connection is held or dropped, and
   * `true` is returned: nothing is sent) or delays it (latency). `status` is the answer's, if there is one.
   */
  after(fired: Fired, socket: Socket, observed: ObservedRequest, status: number | undefined): Promise<boolean>;
  /** Ends the connections faults hold or delay (the sandbox is stopping). */
  releaseHeld(): void;
}

/** The fault stage of one sandbox's app, over its fault rules. */
export function faultStage(faults: FaultService, timers?: Timers): FaultStage {
  const held = new HeldConnections(timers);
  return {
    get active() {
      return faults.active;
    },
    async before(request, observed) {
      if (!faults.active) return undefined;
      const fired = await pickFault(faults, request, observed.client !== undefined);
      if (fired === undefined) return undefined;
      observed.fault = { rule: fired.rule.id, kind: fired.rule.kind };
      observed.businessId ??= fired.businessId;
      await fired.committed;
      if (fired.rule.kind === 'status') throw faultError(fired.rule.status ?? 503);
      return fired;
    },
    runsHandler: (fired) => fired?.rule.kind !== 'timeout' && fired?.rule.kind !== 'reset',
    async after(fired, socket, observed, status) {
      const rule = fired.rule;
      const fault = observed.fault!;
      if (rule.kind === 'timeout' || rule.kind === 'reset' || rule.kind === 'ghost') {
        if (rule.kind === 'ghost' && status !== undefined) fault.withheldStatus = status;
        observed.status = 0;
        if (rule.kind === 'reset' || (rule.kind === 'ghost' && rule.ghostAs === 'reset')) {
          held.reset(socket);
          fault.ended = 'reset';
        } else {
          fault.ended = await held.hold(socket, holdOf(rule));
        }
        return true;
      }
      if (rule.kind === 'latency') {
        const delayMs = latencyOf(rule, Math.random());
        fault.delayMs = delayMs;
        await held.delay(delayMs);
      }
      return false;
    },
    releaseHeld: () => held.releaseAll(),
  };
}

/**
 * The API fault that fires for this request, if any. The body is read (once: the handler gets the same
 * parse) only when a rule could fire for the method and path; a body that cannot be read matches no
 * business, brand or amount, and the handler answers it as usual.
 */
async function pickFault(faults: FaultService, request: RouteRequest, marked: boolean): Promise<Fired | undefined> {
  const method = request.event.method;
  const route = { method, path: request.path, marked };
  const candidates = faults.candidates(route);
  if (candidates.length === 0) return undefined;
  let body: JsonObject | undefined;
  if (method === 'POST') body = await request.json().catch(() => undefined);
  const facts = requestFacts(body, request.query);
  const fired = faults.pick(candidates, { ...route, ...facts });
  return fired === undefined ? undefined : { ...fired, businessId: facts.businessId };
}
