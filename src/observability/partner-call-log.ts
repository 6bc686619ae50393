// The log line of each partner call, as an observer of the partner client: a failure is a warning
// (it may page someone); a success or a call its client abandoned is debug.
import type { Logger } from 'pino';
import type { PartnerCallObserver } from '../partner/index.js';

export function partnerCallLog(logger: Logger): PartnerCallObserver {
  return {
    callEnded(event) {
      const level = event.outcome === 'ok' || event.outcome === 'cancelled' ? 'debug' : 'warn';
      // Built only when the line is written: a successful call logs nothing at the usual info level.
      if (!logger.isLevelEnabled(level)) return;
      // The event's path has no query string: the query carries the access token.
      if (event.outcome === 'ok') logger.debug(event, 'partner call');
      else if (event.outcome === 'cancelled') logger.debug(event, 'partner call cancelled: the client went away');
      else logger.warn(event, 'partner call failed');
    },
  };
}
