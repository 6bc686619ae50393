// Label values that clients or the partner choose (operation names, envelope codes) must not grow
// the number of series without end: the first `max` distinct values keep their own, later ones share
// `other`.

/** The label value for a value: itself while fewer than `max` distinct values have been seen, else `other`. */
export function boundedLabel(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return 'other';
    seen.add(value);
    return value;
  };
}
