// Every error code has one home, src/errors.ts: anywhere else in src/ a code is named through
// ErrorCode (or YogaErrorCode), never written as a string, so that renaming or dropping a code
// is one edit and the compiler finds every use.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode, YogaErrorCode } from '../../src/errors.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const HOME = 'errors.ts';
/** Codegen output, never edited by hand. */
const GENERATED = 'generated';

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === GENERATED && dir === SRC.replace(/\/$/, '') ? [] : sourcesOf(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const CODES = [...Object.values(ErrorCode), ...Object.values(YogaErrorCode)];
/** A code as a whole quoted string: '…', "…" or `…`. */
const QUOTED_CODE = new RegExp(`(['"\`])(${CODES.join('|')})\\1`, 'g');

describe('the home of the error codes', () => {
  const files = sourcesOf(SRC.replace(/\/$/, ''));

  it('reads the modules of src/, the generated ones aside', () => {
    const names = files.map((path) => relative(SRC, path));
    expect(names).toEqual(expect.arrayContaining([HOME, 'http/refusals.ts', 'federation/fleet.ts', 'plugins/error-codes.ts']));
    expect(names.some((name) => name.startsWith(`${GENERATED}/`))).toBe(false);
  });

  it('writes each code once as a string, in src/errors.ts', () => {
    const home = readFileSync(join(SRC, HOME), 'utf8');
    for (const code of CODES) expect(home.match(new RegExp(`'${code}'`, 'g')), code).toHaveLength(1);
  });

  it('has no code written as a string anywhere else in src/', () => {
    const strays = files
      .filter((path) => relative(SRC, path) !== HOME)
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .flatMap((line, index) => [...line.matchAll(QUOTED_CODE)].map((match) => `${relative(SRC, path)}:${index + 1} ${match[0]}`)),
      );
    expect(strays).toEqual([]);
  });
});
