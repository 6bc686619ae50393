// The repository tests on its own: no file under src/ or test/ refers to a path outside the
// checkout, such as the folder of shared documents beside it. A clone with nothing beside it
// must pass `npm test`, so the partner's document and the contract are read from docs/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The checkouts that sit beside this one on the team's machines and in CI. */
const SIBLINGS = /\.\.\/shared\b|\/work\/(?:shared|main|wt)\b/g;
/** Absolute paths under folders that hold checkouts and users' files, never the system's own. */
const ABSOLUTE = /['"`](\/(?:home|Users|work|mnt|srv)\/[^'"`\s]*)/g;
/** A relative path that climbs: `../x`, `../../x/y`. */
const CLIMBING = /(?:\.\.\/)+[\w.@-]*/g;

/** Each reference in `text` (the content of `file`) to a path outside `root`, one sentence each. */
function outsideReferences(root: string, file: string, text: string): string[] {
  const where = relative(root, file);
  const found: string[] = [];
  for (const [match] of text.matchAll(SIBLINGS)) found.push(`${where} names '${match}', outside the repository.`);
  for (const [, path] of text.matchAll(ABSOLUTE)) found.push(`${where} names the absolute path '${path}'.`);
  for (const [path] of text.matchAll(CLIMBING)) {
    const target = resolve(dirname(file), path);
    if (target !== root.replace(/\/$/, '') && !target.startsWith(root.endsWith(sep) ? root : root + sep)) {
      found.push(`${where} refers to '${path}', which leaves the repository.`);
    }
  }
  return found;
}

describe('the repository stands on its own', () => {
  // This file is left out: its samples below make such paths on purpose.
  const files = [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'test'))].filter(
    (file) => file !== fileURLToPath(import.meta.url),
  );

  it('reads every file under src/ and test/', () => {
    expect(files.map((file) => relative(ROOT, file))).toEqual(
      expect.arrayContaining(['src/main.ts', 'test/support/partner-doc.ts', 'test/integration/contract.test.ts']),
    );
  });

  it('has no file under src/ or test/ that refers to a path outside the repository', () => {
    expect(files.flatMap((file) => outsideReferences(ROOT, file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('catches each kind of reference that leaves it (the check is not vacuous)', () => {
    const support = join(ROOT, 'test/support/partner-doc.ts');
    // The samples' paths are put together here, so that this file itself names no path outside the
    // repository for a plain text search of src/ and test/ to find.
    const up = (times: number, rest: string) => `${'../'.repeat(times)}${rest}`;
    const sharedFolder = ['', 'work', 'shared'].join('/');
    expect(outsideReferences(ROOT, support, "new URL('../../docs/partner-api.md', import.meta.url)")).toEqual([]);
    expect(outsideReferences(ROOT, support, `new URL('${up(3, 'shared/partner-api.md')}', import.meta.url)`)).toHaveLength(2);
    expect(outsideReferences(ROOT, support, `resolve(ROOT, '${up(1, 'shared/contract.graphql')}')`)).toHaveLength(1);
    expect(outsideReferences(ROOT, support, `readFileSync('${sharedFolder}/partner-api.md')`)).toHaveLength(2);
    expect(outsideReferences(ROOT, support, "readFileSync('/home/someone/contract.graphql')")).toHaveLength(1);
    expect(outsideReferences(ROOT, support, "import x from '../../../elsewhere/x.js'")).toHaveLength(1);
  });
});
