// Load shedding: past MAX_OPERATIONS_IN_FLIGHT a GraphQL request is answered 503 at once, before
// its body is read, rather than queued behind the operations being worked on.
import type { ServerResponse } from 'node:http';
import { OverloadedError } from '../errors.js';
import { sendError } from './send-json.js';

export interface LoadShedding {
  /** Admits a request, counting it until its answer ends; or answers it 503 and returns false. */
  admit(res: ServerResponse): boolean;
}

export function createLoadShedding(maxInFlight: number): LoadShedding {
  let inFlight = 0;
  const ended = () => (inFlight -= 1);
  return {
    admit(res) {
      if (inFlight >= maxInFlight) {
        refuseOverloaded(res, maxInFlight);
        return false;
      }
      inFlight += 1;
      res.once('close', ended);
      return true;
    },
  };
}

function refuseOverloaded(res: ServerResponse, cap: number): void {
  const error = new OverloadedError(`The service is working on ${cap} operations, the most it takes at once; retry in 1 s.`, 1);
  sendError(res, 503, error, { 'retry-after': String(error.retryAfter) });
}
