// What the property suite shares: fast-check's run parameters (seeded, replayable, bounded) and
// the closed set of codes every answer's errors must come from.
import fc from 'fast-check';
import { ErrorCode } from '../../src/errors.js';

/**
 * fast-check's parameters for one property. A failure prints its seed, its path and the shrunk
 * counterexample; `FC_SEED=<seed> FC_PATH=<path>` replays exactly that case (docs/testing-and-faults.md).
 * `FC_RUNS` scales the runs up for a longer hunt. A property cut short by its time limit FAILS: a
 * run that checked a tenth of its cases proves a tenth as much. The limit sits under the tests'
 * 60 s timeout so that the failure names fast-check's seed rather than vitest's timeout.
 */
export function propertyParameters<T>(numRuns: number, timeLimitMs = 50_000): fc.Parameters<T> {
  const env = process.env;
  return {
    numRuns: env.FC_RUNS ? Number(env.FC_RUNS) : numRuns,
    ...(env.FC_SEED ? { seed: Number(env.FC_SEED) } : {}),
    ...(env.FC_PATH ? { path: env.FC_PATH } : {}),
    // A longer hunt (FC_RUNS) is bounded by vitest's --testTimeout alone.
    ...(env.FC_RUNS ? {} : { interruptAfterTimeLimit: timeLimitMs }),
    markInterruptAsFailure: true,
    verbose: fc.VerbosityLevel.Verbose,
  };
}

/** Every code an answer may carry: the service's closed set and the ones Yoga and graphql-js give. */
export const ANSWER_CODES: ReadonlySet<string> = new Set([
  ...Object.values(ErrorCode),
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
]);

/** Every `"code":"…"` of an answer's text, whatever its framing (JSON, multipart, event stream). */
export function codesIn(text: string): string[] {
  return [...text.matchAll(/"code":"([^"]*)"/g)].map((match) => match[1]!);
}

/** How many `"errors"` entries the text holds, against which the codes are counted. */
export function errorsIn(text: string): number {
  return [...text.matchAll(/"message":/g)].length;
}
