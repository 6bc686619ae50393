// docs/lifecycle.md lists the Yoga plugins in the order PLUGIN_ORDER runs them, one row per entry:
// adding, removing, renaming or moving an entry without its row (or the row without the entry) fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLUGIN_ORDER } from '../../src/plugins/index.js';

const PAGE = readFileSync(new URL('../../docs/lifecycle.md', import.meta.url), 'utf8');

/** The rows of the table under the plugins' heading: [number, entry name]. */
function pluginRows(): Array<[string, string]> {
  const section = PAGE.split(/^## /m).find((part) => part.startsWith('Yoga plugins'));
  if (!section) throw new Error('docs/lifecycle.md has no "## Yoga plugins" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) => {
      const [number = '', entry = ''] = line.slice(1, -1).split('|').map((cell) => cell.trim());
      return [number, entry];
    });
}

describe('docs/lifecycle.md', () => {
  it("lists every PLUGIN_ORDER entry in order, numbered, and nothing else", () => {
    const rows = pluginRows();
    expect(rows.map(([, entry]) => entry)).toEqual(PLUGIN_ORDER.map((entry) => `\`${entry.name}\``));
    expect(rows.map(([number]) => number)).toEqual(PLUGIN_ORDER.map((_, index) => String(index + 1)));
  });
});
