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

/** Student's t at 97.5 % (a two-sided 95 % interval) by degrees of freedom; 1.96 beyond 30. */
const T_975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/**
 * The least-squares slope with its 95 % confidence interval (Student's t, n - 2 degrees of freedom):
 * a heap that does not grow has an interval that holds zero. NaN bounds with fewer than three points.
 */
export function slopeInterval(points: ReadonlyArray<readonly [number, number]>): { slope: number; low: number; high: number } {
  const n = points.length;
  const b = slope(points);
  if (n < 3) return { slope: b, low: Number.NaN, high: Number.NaN };
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const a = my - b * mx;
  let residuals = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    residuals += (y - (a + b * x)) ** 2;
    sxx += (x - mx) ** 2;
  }
  if (sxx === 0) return { slope: 0, low: Number.NaN, high: Number.NaN };
  const standardError = Math.sqrt(residuals / (n - 2) / sxx);
  const t = T_975[n - 3] ?? 1.96;
  return { slope: b, low: b - t * standardError, high: b + t * standardError };
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
