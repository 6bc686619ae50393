// The documentation stays a reference that holds: README.md within 12 KB, each page of docs/ within
// 16 KB (a page longer than that is two readers' questions, and wants splitting by them), docs/ with
// its decisions within 120 KB in all (a reference, not a record of how it was built), every relative link in it and in docs/ resolving (anchors included), every `npm run` script the docs name existing, and the
// README's layout section listing exactly the folders under src/ and naming every file at its root.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf } from '../support/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = join(ROOT, 'README.md');
const read = (file: string) => readFileSync(file, 'utf8');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
const DOCS = [README, ...markdownUnder(join(ROOT, 'docs'))];
const name = (file: string) => relative(ROOT, file);

const anchorsIn = (file: string) => anchorsOf(read(file));

/** Markdown links outside code: `[text](target)`, with the target's path and anchor. */
function linksIn(file: string): Array<{ target: string; path: string; anchor: string | null }> {
  const prose = read(file).replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => {
    const [path, anchor] = target!.split('#');
    return { target: target!, path: path!, anchor: anchor ?? null };
  });
}

describe('README.md', () => {
  it('is a reference of at most 12 KB, read as 12,000 bytes', () => {
    expect(statSync(README).size).toBeLessThanOrEqual(12_000);
  });

  it("lists in its layout section exactly the folders under src/, and only files that exist", () => {
    const layout = /## Layout[\s\S]*?```\n([\s\S]*?)```/.exec(read(README))?.[1] ?? '';
    const entries = [...layout.matchAll(/^(src\/\S+)/gm)].map((match) => match[1]!);
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`);
    expect(entries.filter((entry) => entry.endsWith('/')).sort()).toEqual(folders.sort());
    expect(entries.filter((entry) => !existsSync(join(ROOT, entry)))).toEqual([]);
  });

  it('names every file at the root of src/ in its layout section', () => {
    const layout = /## Layout[\s\S]*?```\n([\s\S]*?)```/.exec(read(README))?.[1] ?? '';
    const named = new Set([...layout.matchAll(/(?<![\w/.-])(src\/[\w.-]+\.ts)\b/g)].map((match) => match[1]!));
    const files = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `src/${entry.name}`);
    expect(files.filter((file) => !named.has(file))).toEqual([]);
  });
});

/** A page of docs/ at most, read as README's 12 KB is: in bytes, KB as thousands. */
const DOCS_PAGE_MAX_BYTES = 16_000;

describe('docs/', () => {
  it.each(DOCS.filter((file) => file !== README).map(name))('%s is a page of at most 16 KB, read as 16,000 bytes', (page) => {
    expect(statSync(join(ROOT, page)).size).toBeLessThanOrEqual(DOCS_PAGE_MAX_BYTES);
  });
});

/** docs/*.md and docs/decisions/*.md together at most, read as the pages' limits are: KB as thousands. */
const DOCS_TOTAL_MAX_BYTES = 120_000;

it('keeps docs/*.md and docs/decisions/*.md together under 120 KB, read as 120,000 bytes', () => {
  const pages = ['docs', 'docs/decisions'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((file) => file.endsWith('.md'))
      .map((file) => join(ROOT, dir, file)),
  );
  const sizes = Object.fromEntries(pages.map((page) => [name(page), statSync(page).size]));
  const total = Object.values(sizes).reduce((sum, size) => sum + size, 0);
  expect(total, `the pages' sizes: ${JSON.stringify(sizes)}`).toBeLessThan(DOCS_TOTAL_MAX_BYTES);
});

describe.each(DOCS.map((file) => [name(file), file] as const))('%s', (_name, file) => {
  it('has relative links that resolve, anchors included', () => {
    const broken = linksIn(file)
      .filter((link) => !/^[a-z]+:/.test(link.target))
      .flatMap(({ target, path, anchor }) => {
        const linked = path === '' ? file : resolve(dirname(file), path);
        if (!existsSync(linked)) return [`${target}: no such file`];
        if (anchor !== null && !anchorsIn(linked).includes(anchor)) return [`${target}: no such heading`];
        return [];
      });
    expect(broken).toEqual([]);
  });

  it('names only npm scripts that package.json has', () => {
    const scripts = Object.keys((JSON.parse(read(join(ROOT, 'package.json'))) as { scripts: Record<string, string> }).scripts);
    const named = [...read(file).matchAll(/\bnpm run ([\w:-]+)/g)].map((match) => match[1]!);
    expect(named.filter((script) => !scripts.includes(script))).toEqual([]);
  });
});

it('checks every page under docs/', () => {
  expect(DOCS.map(name)).toEqual(
    expect.arrayContaining([
      'docs/paging-and-fees.md',
      'docs/operation-limits.md',
      'docs/statuses-and-error-codes.md',
      'docs/timeouts-and-retries.md',
      'docs/fleet.md',
      'docs/gateway-and-federation.md',
      'docs/decisions/heap-limit.md',
      'docs/operations.md',
      'docs/clients-and-graphql-over-http.md',
      'docs/simulator.md',
      'docs/configuration.md',
      'docs/performance.md',
      'docs/schema-evolution.md',
      'docs/lifecycle.md',
    ]),
  );
});

describe('docs/decisions/library-departures.md', () => {
  const testFiles = new Map(
    ['unit', 'integration'].flatMap((tier) =>
      readdirSync(join(ROOT, 'test', tier))
        .filter((file) => file.endsWith('.test.ts'))
        .map((file) => [file, read(join(ROOT, 'test', tier, file)).replace(/\\'/g, "'")] as const),
    ),
  );

  it('quotes only tests that exist, each in the file it names (library-departures.test.ts unless another)', () => {
    const page = read(join(ROOT, 'docs/decisions/library-departures.md')).replace(/\n {2}/g, ' ');
    // Each "Test:" or "Tests:" (any case) runs to the end of its paragraph or list item; a table's tests are its last cell.
    const spans = [
      ...[...page.matchAll(/tests?:([\s\S]*?)(?=\n|$)/gi)].map((match) => match[1]!),
      ...[...page.matchAll(/^\|.*\| ([^|]*) \|$/gm)].map((match) => match[1]!),
    ];
    const quoted: { file: string; title: string }[] = [];
    for (const span of spans) {
      let file = 'library-departures.test.ts';
      for (const [, named, title] of span.matchAll(/`([\w-]+\.test\.ts)`|"([^"]+)"/g)) {
        if (named) file = named;
        else quoted.push({ file, title: title! });
      }
    }
    expect(quoted.length).toBeGreaterThan(20);
    // "…" stands for words left out: each part must be in the test file.
    const missing = quoted.filter(({ file, title }) => {
      const text = testFiles.get(file);
      return text === undefined || title.split('…').some((part) => !text.includes(part.trim()));
    });
    expect(missing).toEqual([]);
  });
});
