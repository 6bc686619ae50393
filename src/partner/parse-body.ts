// The client's `parseBody` hook (after Apollo's RESTDataSource): a 200 body is JSON in the common
// envelope; hands out `data`, or throws the envelope's failure with every secret scrubbed from it.
import { PartnerEnvelopeError, UpstreamBadResponseError } from '../errors.js';
import { unwrapEnvelope } from './envelope.js';
import { redactSecrets } from './redact.js';

/** `secrets` is asked for only when there is a failure to scrub. */
export function parseBody(operation: string, text: string, secrets: () => readonly string[]): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UpstreamBadResponseError(operation, 'the body is not JSON');
  }
  try {
    return unwrapEnvelope(operation, parsed);
  } catch (error) {
    // The partner's own words may echo the call's URL or headers: its message and fields both.
    if (error instanceof PartnerEnvelopeError) {
      const scrubbed = secrets();
      if (scrubbed.length > 0) throw new PartnerEnvelopeError(operation, redactSecrets(error.upstream, scrubbed));
    }
    throw error;
  }
}
