// Load shedding: past MAX_OPERATIONS_IN_FLIGHT a GraphQL request is answered 503 at once, before
// its body is read, rather than queued behind the operations being worked on.
import type { ServerResponse } from 'node:http';
import { OverloadedError } from '../errors.js';
import { errorBody, sendJsonText } from './send-json.js';

export interface LoadShedding {
  /** Admits a request, counting it until its answer ends; or answers it 503 and returns false. */
  admit(res: ServerResponse): boolean;
  /** Requests admitted whose answer has not ended (finished, or its connection closed). */
  readonly inFlight: number;
}

export function createLoadShedding(maxInFlight: number): LoadShedding {
  let inFlight = 0;
  const ended = () => (inFlight -= 1);
  // The refusal depends on the cap alone: made once, not for each request turned away while saturated.
  const overloaded = new OverloadedError(`The service is working on ${maxInFlight} operations, the most it takes at once; retry in 1 s.`, 1);
  const refusal = errorBody(overloaded);
  const refusalHeaders = { 'retry-after': String(overloaded.retryAfter) };
  return {
    admit(res) {
      if (inFlight >= maxInFlight) {
        sendJsonText(res, 503, refusal, refusalHeaders);
        return false;
      }
      inFlight += 1;
      res.once('close', ended);
      return true;
    },
    get inFlight() {
      return inFlight;
    },
  };
}
