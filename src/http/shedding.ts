// Load shedding: past MAX_OPERATIONS_IN_FLIGHT a GraphQL request is answered 503 rather than
// queued behind the operations being worked on. A request takes its slot only once its body has
// arrived (request-body.ts), so that a client sending slowly holds none; the bodies still arriving
// share a memory budget instead.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorAnswerBody, OverloadedError } from '../errors.js';

export interface LoadShedding {
  /** Whether a slot is free, asked before the request's body is read. */
  hasRoom(): boolean;
  /** Admits a request, counting it until its answer ends; false when every slot is taken. */
  admit(res: ServerResponse): boolean;
  /**
   * Counts a request turned away because every slot is taken as shed, and gives its answer, 503
   * OVERLOADED with Retry-After, for the server to send.
   */
  refuseSlot(): Refusal;
  /**
   * Counts a request whose body the budget below had no room for as shed, and gives its answer,
   * 503 OVERLOADED with Retry-After, for the body's reader to send while the rest of it is dropped.
   */
  refuseBody(): Refusal;
  /** Takes `bytes` of the budget of bodies still arriving; false when it has no room for them. */
  reserveBody(bytes: number): boolean;
  /** Gives back what reserveBody took, once the body has arrived whole or been dropped. */
  releaseBody(bytes: number): void;
  /** Requests admitted whose answer has not ended (finished, or its connection closed). */
  readonly inFlight: number;
}

/** An answer made once and sent as it is. */
export interface Refusal {
  status: number;
  text: string;
  headers: OutgoingHttpHeaders;
}

/**
 * `bodyBudgetBytes`: the most the bodies still arriving hold together; the operations admitted
 * hold as much at most (one body each), so this keeps the memory of bodies within twice that.
 * `onShed` is told of each request turned away 503, whichever way.
 */
export function createLoadShedding(maxInFlight: number, bodyBudgetBytes: number, onShed: () => void = () => {}): LoadShedding {
  let inFlight = 0;
  let bodyBytes = 0;
  const ended = () => (inFlight -= 1);
  // The refusals depend on the cap alone: made once, not for each request turned away while saturated.
  const overloaded = (message: string): Refusal => {
    const error = new OverloadedError(message, 1);
    return { status: 503, text: errorAnswerBody(error), headers: { 'retry-after': String(error.retryAfter) } };
  };
  const slotsRefusal = overloaded(`The service is working on ${maxInFlight} operations, the most it takes at once; retry in 1 s.`);
  const bodyRefusal = overloaded('The service is receiving as many request bodies as it holds at once; retry in 1 s.');
  const hasRoom = () => inFlight < maxInFlight;
  return {
    hasRoom,
    admit(res) {
      if (!hasRoom()) return false;
      inFlight += 1;
      res.once('close', ended);
      return true;
    },
    refuseSlot() {
      onShed();
      return slotsRefusal;
    },
    refuseBody() {
      onShed();
      return bodyRefusal;
    },
    reserveBody(bytes) {
      if (bodyBytes + bytes > bodyBudgetBytes) return false;
      bodyBytes += bytes;
      return true;
    },
    releaseBody(bytes) {
      bodyBytes -= bytes;
    },
    get inFlight() {
      return inFlight;
    },
  };
}
