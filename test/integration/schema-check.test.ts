// `npm run schema:check` as a real process, in a scratch git repository made here: this repository's
// schema/ and a small manifest committed on main, then changed in the working tree. Each outcome
// the check promises: a field a shipped document uses removed, a field added, an argument's type
// changed, a breaking change nobody uses, the Markdown summary, another base, other documents.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHECK = join(ROOT, 'src/schema-check/main.ts');
const TSX = import.meta.resolve('tsx');

const ITEM_NAMES = 'query ItemNames($first: Int) { inventory(platformId: "76561198000000240", appId: 730) { items(first: $first) { nodes { id name } } } }';
const FEES = 'mutation Fees { calculateListingFee(input: { items: [{ price: 100, token: "t" }] }) { fees { fee } } }';
const idOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

let repo: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCheck(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX, CHECK, ...args], { cwd: repo, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

function git(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: repo, encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)));
  });
}

/** Edits a schema file of the scratch working tree: `from` must occur in it. */
function editSchema(file: string, from: string, to: string): void {
  const path = join(repo, 'schema', file);
  const sdl = readFileSync(path, 'utf8');
  expect(sdl).toContain(from);
  writeFileSync(path, sdl.replace(from, to));
}

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), 'tradegraph-schema-check-'));
  cpSync(join(ROOT, 'schema'), join(repo, 'schema'), { recursive: true });
  mkdirSync(join(repo, 'test/generated/trusted'), { recursive: true });
  writeFileSync(
    join(repo, 'test/generated/trusted/persisted-documents.json'),
    JSON.stringify({ [idOf(ITEM_NAMES)]: ITEM_NAMES, [idOf(FEES)]: FEES }, null, 2),
  );
  await git('init', '--quiet', '--initial-branch=main');
  await git('add', '.');
  await git('-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'base');
});

afterEach(async () => {
  await git('checkout', '--quiet', '--', 'schema');
  await git('clean', '--quiet', '-fd', '--', 'schema');
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

// Each run starts a Node process that loads the schema tooling: room for a loaded machine.
describe('npm run schema:check', { timeout: 90_000 }, () => {
  it('passes on an unchanged schema, having checked the manifest', async () => {
    const run = await runCheck();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('0 change(s) from merge base with main');
    expect(run.stdout).toContain('2 shipped operation(s) checked');
    expect(run.stdout).toContain('ok: no shipped operation breaks.');
  });

  it('fails when a field that a shipped document uses is removed, naming the operation, its hash and the field', async () => {
    editSchema('inventory.graphql', '  """Display name."""\n  name: String\n', '');
    const run = await runCheck();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("breaking  Field 'name' was removed from object type 'InventoryItem'");
    expect(run.stdout).toContain('error: 1 shipped operation(s) break:');
    expect(run.stdout).toContain(`ItemNames ${idOf(ITEM_NAMES)}`);
    expect(run.stdout).toContain("InventoryItem.name: Field 'name' was removed");
    expect(run.stdout).toContain('does not validate: Cannot query field "name" on type "InventoryItem".');
    expect(run.stdout).not.toContain(`Fees ${idOf(FEES)}`);
  });

  it('passes when a field is added', async () => {
    editSchema('inventory.graphql', '  """Display name."""\n', '  """A field added."""\n  addedField: String\n  """Display name."""\n');
    const run = await runCheck();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("safe      Field 'addedField' was added to object type 'InventoryItem'");
    expect(run.stdout).not.toContain('warning');
    expect(run.stdout).toContain('ok: no shipped operation breaks.');
  });

  it("fails when the type of an argument a shipped document passes changes, naming the argument", async () => {
    editSchema('inventory.graphql', '    first: Int', '    first: String');
    const run = await runCheck();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`ItemNames ${idOf(ITEM_NAMES)}`);
    expect(run.stdout).toContain("Inventory.items.first: Type for argument 'first' on field 'Inventory.items' changed from 'Int' to 'String'");
    expect(run.stdout).toContain('Variable "$first" of type "Int" used in position expecting type "String".');
  });

  it('fails when a required input field is added to an input a shipped document sends', async () => {
    editSchema('listing-fee.graphql', '  styleToken: String\n', '  styleToken: String\n  """Now required."""\n  market: String!\n');
    const run = await runCheck();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`Fees ${idOf(FEES)}`);
    expect(run.stdout).toContain('ListingFeeItemInput.market');
  });

  it('passes with a warning when a breaking change is used by no shipped document', async () => {
    editSchema('inventory.graphql', '  """Free-text remark."""\n  remark: String\n', '');
    const run = await runCheck();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "warning: breaking change that no shipped operation uses: Field 'remark' was removed from object type 'InventoryItem' [InventoryItem.remark]",
    );
    expect(run.stdout).toContain('ok: no shipped operation breaks.');
  });

  it('passes an optional input field added as a safe change', async () => {
    editSchema('listing-fee.graphql', '  styleToken: String\n', '  styleToken: String\n  """Optional."""\n  note: String\n');
    const run = await runCheck();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("safe      Input field 'note' of type 'String' was added to input object type 'ListingFeeItemInput'");
  });

  it('writes the changes as a pull request summary with --markdown', async () => {
    editSchema('inventory.graphql', '  """Display name."""\n  name: String\n', '');
    const summary = join(repo, 'summary.md');
    const run = await runCheck('--markdown', summary);
    expect(run.code).toBe(1);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toMatch(/^## Schema check against `merge base with main \([0-9a-f]{12}\)`/);
    expect(markdown).toContain('**Fails**: 1 shipped operation(s) break.');
    expect(markdown).toContain("| breaking | Field 'name' was removed from object type 'InventoryItem' | `InventoryItem.name` |");
    expect(markdown).toContain(`- \`ItemNames\` \`${idOf(ITEM_NAMES)}\``);
    rmSync(summary);
  });

  it('compares with the ref given as --base, and checks the documents given as --documents', async () => {
    editSchema('inventory.graphql', '  """Short display name."""\n  shortName: String\n', '');
    await git('-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-am', 'drop shortName');
    const documents = join(repo, 'front-end');
    mkdirSync(documents);
    writeFileSync(join(documents, 'page.graphql'), 'query ShortNames { inventory(platformId: "p", appId: 1) { items { nodes { ...Names } } } }\n');
    writeFileSync(join(documents, 'fragments.graphql'), 'fragment Names on InventoryItem { shortName }\n');
    try {
      // Against the commit itself nothing changed, but the document is still refused; against its
      // parent, the change that broke it is named.
      const unchanged = await runCheck('--base', 'HEAD', '--documents', 'front-end/*.graphql');
      expect(unchanged.code).toBe(1);
      expect(unchanged.stdout).toContain('0 change(s) from HEAD');
      expect(unchanged.stdout).toContain('(already invalid at the base)');
      const run = await runCheck('--base', 'HEAD~1', '--documents', 'front-end/*.graphql');
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('from HEAD~1');
      expect(run.stdout).toContain('ShortNames front-end/page.graphql');
      expect(run.stdout).toContain("InventoryItem.shortName: Field 'shortName' was removed");
    } finally {
      rmSync(documents, { recursive: true });
      await git('reset', '--quiet', '--hard', 'HEAD~1');
    }
  });

  it('reads an Apollo persisted query manifest given as --documents', async () => {
    editSchema('inventory.graphql', '  """Display name."""\n  name: String\n', '');
    const manifest = join(repo, 'apollo-manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'abc123', name: 'ItemNames', type: 'query', body: ITEM_NAMES }] }),
    );
    try {
      const run = await runCheck('--documents', 'apollo-manifest.json');
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('ItemNames abc123 (apollo-manifest.json)');
    } finally {
      rmSync(manifest);
    }
  });

  it('stops with exit 2 and a clear message on a base that does not exist', async () => {
    const run = await runCheck('--base', 'no-such-ref');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('schema:check: --base no-such-ref: no such commit in this repository');
  });
});
