// What V8's young-generation collector (the scavenger) keeps: objects still referenced at two
// scavenges in a row are promoted to the old generation, where only full collections free them.
// Per-request objects must die young (docs/decisions/request-lifetimes.md); this measures whether
// they do, by V8's own old-space figures, with collections asked for by type.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// `gc` is exposed to contexts made after the flag is set: a new one here, not the test's own.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'major' | 'minor' }) => void;

// Turned back on after a measure only when the process started with it (not under --no-turbofan
// or --jitless, given on the command line or in NODE_OPTIONS).
const turbofanWasOn = ![...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some(
  (flag) => flag === '--no-turbofan' || flag === '--jitless',
);

const oldSpaceUsed = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

/** The bytes of each payload that `promotedShare` hands to `make`. */
export const PAYLOAD_BYTES = 1024;

/**
 * Begins a measure: a full collection, the old generation's size then, and TurboFan off. Where V8
 * makes a function can depend on the tier of the code that makes it: TurboFan's code made an
 * assigned function literal young where the interpreter, Sparkplug and Maglev made it old. TurboFan
 * takes over the measured code part way through its loop, at a moment that depends on its
 * background compile, so with it on the share is anywhere from 0 to 1 from one run to the next.
 * With it off no code is newly optimised by it, so code that was not hot before runs in the tiers a
 * request's code runs in until it is hot. `endMeasure` must follow, in a `finally`.
 */
function beginMeasure(): number {
  gc({ type: 'major' });
  const before = oldSpaceUsed();
  if (turbofanWasOn) setFlagsFromString('--no-turbofan');
  return before;
}

function endMeasure(): void {
  if (turbofanWasOn) setFlagsFromString('--turbofan');
}

/** What of `count` payloads reached the old generation since `before`, once two scavenges have run. */
function shareSince(before: number, count: number): number {
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  return (oldSpaceUsed() - before) / (count * PAYLOAD_BYTES);
}

/** One payload: a double array of 128 elements, PAYLOAD_BYTES of elements, one young object. */
const payloadOf = (i: number) => new Array<number>(PAYLOAD_BYTES / 8).fill(i + 0.5);

/**
 * The share (0 to 1, and above when more than the payloads is kept) of `count` payloads that reach
 * the old generation when each is handed to `make` and everything it makes is then dropped. A
 * payload only `make`'s result refers to dies in the next scavenge, and the share is about 0.
 */
export function promotedShare(make: (payload: number[]) => unknown, count = 2_000): number {
  const before = beginMeasure();
  try {
    for (let i = 0; i < count; i++) make(payloadOf(i));
  } finally {
    endMeasure();
  }
  return shareSince(before, count);
}

/**
 * `promotedShare` for a process-wide structure that per-request work passes through: `pass` hands
 * each payload through it and settles once the structure is done with it, and scavenges run every
 * `scavengeEvery` payloads meanwhile, as requests' allocations bring them, so that the structure's
 * own long-lived parts reach the old generation as they do in a server. A structure that lets go of
 * what passed through gives a share of about 0.
 */
export async function promotedShareThrough(pass: (payload: number[]) => Promise<unknown>, count: number, scavengeEvery: number): Promise<number> {
  const before = beginMeasure();
  try {
    for (let i = 0; i < count; i++) {
      await pass(payloadOf(i));
      if (i % scavengeEvery === scavengeEvery - 1) gc({ type: 'minor' });
    }
  } finally {
    endMeasure();
  }
  return shareSince(before, count);
}
