// `npm run schema:check [-- --base <ref>] [--documents <manifest.json | glob>]... [--markdown <file>]`
// The working tree's schema/ against the one at a git ref (default: the merge base with main), in
// the git repository of the current directory. Exit 0: no shipped operation breaks (breaking
// changes nobody uses are warnings); 1: one does; 2: the check could not run (bad ref, bad flag).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readSchemaFiles } from '../schema.js';
import { checkSchemas, markdownReport, readShippedOperations, servedSchemaOf, textReport, type SchemaFiles } from './check.js';

/**
 * What this repository ships itself: its trusted-documents manifest, which codegen makes from
 * test/operations/ and graphiql/ (CI fails when it is stale), so each operation is checked once.
 */
const DEFAULT_DOCUMENTS = ['test/generated/trusted/persisted-documents.json'];

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function baseRevision(root: string, ref: string | undefined): { commit: string; label: string } {
  if (ref !== undefined) {
    try {
      return { commit: git(root, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`), label: ref };
    } catch {
      throw new Error(`--base ${ref}: no such commit in this repository`);
    }
  }
  for (const branch of ['main', 'origin/main']) {
    try {
      return { commit: git(root, 'merge-base', 'HEAD', branch), label: `merge base with ${branch}` };
    } catch {
      // The next candidate: a clone may have only the remote's branch.
    }
  }
  throw new Error('no branch main or origin/main to find the merge base with: give --base <ref>');
}

/** schema/*.graphql as committed at a revision. */
function schemaFilesAt(root: string, commit: string): SchemaFiles {
  return git(root, 'ls-tree', '--name-only', commit, '--', 'schema/')
    .split('\n')
    .filter((path) => path.endsWith('.graphql'))
    .map((path) => ({ name: path.slice('schema/'.length), sdl: git(root, 'show', `${commit}:${path}`) }));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      documents: { type: 'string', multiple: true },
      markdown: { type: 'string' },
    },
    strict: true,
  });
  const cwd = process.cwd();
  let root: string;
  try {
    root = git(cwd, 'rev-parse', '--show-toplevel');
  } catch {
    throw new Error(`${cwd} is not inside a git repository`);
  }
  const base = baseRevision(root, values.base);
  const baseLabel = `${base.label} (${base.commit.slice(0, 12)})`;
  const oldFiles = schemaFilesAt(root, base.commit);
  if (oldFiles.length === 0) throw new Error(`${baseLabel} has no schema/*.graphql`);
  const oldSchema = servedSchemaOf(oldFiles);
  const newSchema = servedSchemaOf(readSchemaFiles(join(root, 'schema')));
  const operations = values.documents
    ? readShippedOperations(values.documents, cwd)
    : readShippedOperations(DEFAULT_DOCUMENTS, root);
  if (operations.length === 0) throw new Error('no shipped operations found: check the --documents paths');

  const result = await checkSchemas(oldSchema, newSchema, operations);
  console.log(textReport(result, baseLabel));
  if (values.markdown) writeFileSync(values.markdown, markdownReport(result, baseLabel));
  return result.breakages.length > 0 ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`schema:check: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
