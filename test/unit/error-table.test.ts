// The error tables a client reads hold the closed set of src/errors.ts: one row per code, no row
// for a code the service does not have. Deleting a row, or adding a code without one, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The first cell of each row of the first table under `heading` (the rows' codes, as written). */
function codeRows(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  expect(start, `no heading '${heading}'`).toBeGreaterThanOrEqual(0);
  const section = markdown.slice(start + heading.length);
  const table = /\n((?:\|.*\|\n)+)/.exec(section)?.[1] ?? '';
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) => line.split('|')[1]!.trim());
}

const CLOSED_SET = Object.values(ErrorCode).sort();

describe.each([
  ['README.md', '## Errors'],
  ['docs/statuses-and-error-codes.md', '## Error codes in detail'],
])('the error table of %s', (path, heading) => {
  const rows = codeRows(read(path), heading);

  it('has exactly one row per code of the closed set, and no other row', () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const cell of rows) expect(cell, `a row's first cell is not one code: ${cell}`).toMatch(/^`[A-Z_]+`$/);
    expect(rows.map((cell) => cell.slice(1, -1)).sort()).toEqual(CLOSED_SET);
  });
});
