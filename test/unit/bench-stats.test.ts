// The benchmark's arithmetic (test/bench/stats.ts): what its report's medians, percentiles, ratios
// and soak trend mean. No timing here: the bench itself never runs in the test suite.
import { describe, expect, it } from 'vitest';
import { median, percentile, poissonArrivals, ratio, slope, slopeInterval } from '../bench/stats.js';

describe('bench statistics', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('answers nearest-rank percentiles of raw samples', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile([...samples], 50)).toBe(50);
    expect(percentile([...samples], 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
  });

  it('rounds ratios to three decimals and refuses a zero denominator', () => {
    expect(ratio(2, 3)).toBe(0.667);
    expect(ratio(1, 0)).toBeNaN();
  });

  it('finds no trend in a flat series and the slope of a growing one', () => {
    expect(slope([[0, 5], [1, 5], [2, 5]])).toBe(0);
    expect(slope([[0, 1], [1, 3], [2, 5]])).toBeCloseTo(2);
  });

  it('schedules an open load at the asked rate, the same for the same seed', () => {
    const arrivals = poissonArrivals(200, 60_000, 7);
    // 12,000 expected; a Poisson count's standard deviation is about 110.
    expect(arrivals.length).toBeGreaterThan(11_500);
    expect(arrivals.length).toBeLessThan(12_500);
    expect(arrivals.every((at, i) => at >= 0 && at < 60_000 && (i === 0 || at >= arrivals[i - 1]!))).toBe(true);
    // Exponential gaps: about e^-1 of them are longer than the mean gap of 5 ms.
    const longer = arrivals.filter((at, i) => i > 0 && at - arrivals[i - 1]! > 5).length / arrivals.length;
    expect(longer).toBeGreaterThan(0.34);
    expect(longer).toBeLessThan(0.4);
    expect(poissonArrivals(200, 60_000, 7)).toEqual(arrivals);
    expect(poissonArrivals(200, 60_000, 8)).not.toEqual(arrivals);
  });
});

describe('the soak heap trend', () => {
  it('gives an interval that holds zero for a flat, noisy series', () => {
    const flat = Array.from({ length: 20 }, (_, i) => [i, 100 + (i % 2 === 0 ? 1 : -1)] as const);
    const { slope: b, low, high } = slopeInterval(flat);
    expect(Math.abs(b)).toBeLessThan(0.1);
    expect(low).toBeLessThan(0);
    expect(high).toBeGreaterThan(0);
  });

  it('gives an interval above zero for a growing series, and the textbook figures', () => {
    const points = [[0, 1.5], [1, 2.5], [2, 5.5], [3, 6.5], [4, 9]] as const;
    const { slope: b, low, high } = slopeInterval(points);
    // Fit y = 1.9x + 1.2: residuals 0.3, -0.6, 0.5, -0.4, 0.2 (sum of squares 0.9), Sxx 10, t(3) 3.182.
    expect(b).toBeCloseTo(1.9, 5);
    expect(high - b).toBeCloseTo(3.182 * Math.sqrt(0.9 / 3 / 10), 5);
    expect(b - low).toBeCloseTo(high - b, 10);
    expect(low).toBeGreaterThan(0);
  });

  it('has no interval below three points', () => {
    expect(slopeInterval([[0, 1], [1, 2]]).low).toBeNaN();
  });
});
