// The client's `parseBody` hook (after Apollo's RESTDataSource): a 200 body, already parsed as JSON
// (send.ts), is the common envelope; hands out `data`, or throws the envelope's failure with every
// secret scrubbed from it.
import { PartnerEnvelopeError } from '../errors.js';
import { unwrapEnvelope } from './error-from-response.js';
import { redactSecrets } from './redact.js';

/** `secrets` is asked for only when there is a failure to scrub. */
export function parseBody(operation: string, body: unknown, secrets: () => readonly string[]): unknown {
  try {
    return unwrapEnvelope(operation, body);
  } catch (error) {
    // The partner's own words may echo the call's URL or headers: its message and fields both.
    if (error instanceof PartnerEnvelopeError) {
      const scrubbed = secrets();
      if (scrubbed.length > 0) throw new PartnerEnvelopeError(operation, redactSecrets(error.upstream, scrubbed));
    }
    throw error;
  }
}
