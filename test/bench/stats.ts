// Pure statistics of the benchmark: medians, percentiles of raw samples, ratios and the trend of
// a series. Kept free of I/O so that the report's arithmetic can be checked in isolation.

/** The median of the values (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The p-th percentile (0..100) of raw samples by the nearest-rank method, as load generators
 * report it. The samples are sorted in place: callers hand over arrays they no longer need.
 */
export function percentile(samples: Float64Array | number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  samples.sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * samples.length);
  return samples[Math.min(samples.length, Math.max(1, rank)) - 1]!;
}

/** a / b, rounded to three decimals for the report; NaN when b is 0. */
export function ratio(a: number, b: number): number {
  return b === 0 ? Number.NaN : round(a / b, 3);
}

export function round(value: number, decimals = 2): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/**
 * The least-squares slope of a series of (x, y) points, in y units per x unit. The soak reports
 * it per 10,000 requests: a leak shows as a slope that does not flatten after warm-up.
 */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Arrival offsets in ms of an open load: a Poisson process at `ratePerSecond` over `durationMs`,
 * from a seeded generator (mulberry32), so that every target of a run is sent the very same
 * sequence of gaps and bursts.
 */
export function poissonArrivals(ratePerSecond: number, durationMs: number, seed: number): Float64Array {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const meanGapMs = 1000 / ratePerSecond;
  const offsets: number[] = [];
  for (let at = -Math.log(1 - uniform()) * meanGapMs; at < durationMs; at += -Math.log(1 - uniform()) * meanGapMs) {
    offsets.push(at);
  }
  return Float64Array.from(offsets);
}
