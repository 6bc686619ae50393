// The schema check: every change between two schemas classified by GraphQL Inspector, and every
// shipped operation (trusted-document manifests, .graphql files) checked against the new schema,
// so that a change which breaks a document a front end has already shipped is caught before it lands.
import { readFileSync, globSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import {
  GraphQLSchema,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type OperationDefinitionNode,
} from 'graphql';
import { createYoga } from 'graphql-yoga';
import { coordinatesUsedBy, fragmentsSpreadBy } from '../observability/field-usage.js';
import { useIncrementalDelivery } from '../plugins/defer-stream.js';
import { typeDefsOf } from '../schema.js';

export type SchemaFiles = ReadonlyArray<{ name: string; sdl: string }>;

/** One operation a front end ships: its name, its id (the manifest's hash, or the file), its document. */
export interface ShippedOperation {
  name: string;
  id: string;
  /** The manifest or file it came from, as given. */
  source: string;
  /** The operation with the fragments it spreads (or a manifest entry's whole text). */
  document: DocumentNode | null;
  /** Why its text could not be read as GraphQL, when it could not. */
  parseError?: string;
}

export type Severity = 'breaking' | 'dangerous' | 'safe';

export interface ClassifiedChange {
  severity: Severity;
  type: string;
  message: string;
  /** The schema coordinate it touches (`Type.field`, `Type.field.argument`, ...), when it has one. */
  path: string | null;
}

export interface Breakage {
  operation: ShippedOperation;
  /** What in the schema broke it: a coordinate it uses, with the change; or the validation error alone. */
  coordinate: string | null;
  reason: string;
}

export interface CheckResult {
  changes: ClassifiedChange[];
  /** Shipped operations a change breaks; the check fails when there is any. */
  breakages: Breakage[];
  /** Breaking changes that no shipped operation uses: they pass, with a warning. */
  unusedBreaking: ClassifiedChange[];
  /** Dangerous changes with the operations that use what they touch. */
  dangerous: Array<{ change: ClassifiedChange; usedBy: ShippedOperation[] }>;
  operations: ShippedOperation[];
}

/** A schema as the service serves it, and validation with the rules the service adds. */
export interface ServedSchema {
  schema: GraphQLSchema;
  /** The document's validation errors against this schema. */
  validate: (document: DocumentNode) => readonly GraphQLError[];
}

/**
 * The schema as the service serves it, from these SDL files: the federation subgraph that
 * src/schema.ts builds, through Yoga with the service's own @defer/@stream plugins, which add their
 * directives to the schema and their rules to validation.
 */
export function servedSchemaOf(files: SchemaFiles): ServedSchema {
  // Only its shape is compared and validated against: no resolvers.
  const yoga = createYoga({
    schema: buildSubgraphSchema([{ typeDefs: typeDefsOf(files) }]),
    plugins: useIncrementalDelivery(),
    // Validated once per schema here: a cache keyed by document alone would mix the two schemas.
    parserAndValidationCache: false,
    logging: false,
  });
  const { schema, validate } = yoga.getEnveloped();
  return { schema, validate: (document) => validate(schema, document) };
}

const SEVERITY: Record<CriticalityLevel, Severity> = {
  [CriticalityLevel.Breaking]: 'breaking',
  [CriticalityLevel.Dangerous]: 'dangerous',
  [CriticalityLevel.NonBreaking]: 'safe',
};

function classify(change: Change): ClassifiedChange {
  return { severity: SEVERITY[change.criticality.level], type: String(change.type), message: change.message, path: change.path ?? null };
}

/**
 * Whether an operation that used these coordinates (on the old schema) is touched by the change:
 * it uses what the change names, or, for something added (a required argument or input field), the
 * field or input type it was added to.
 */
function touches(change: ClassifiedChange, used: ReadonlySet<string>): string | null {
  if (change.path === null) return null;
  if (used.has(change.path)) return change.path;
  if (change.type.endsWith('_ADDED')) {
    const parent = change.path.slice(0, Math.max(0, change.path.lastIndexOf('.')));
    if (parent && used.has(parent)) return change.path;
  }
  return null;
}

export async function checkSchemas(old: ServedSchema, current: ServedSchema, operations: ShippedOperation[]): Promise<CheckResult> {
  const [oldSchema, newSchema] = [old.schema, current.schema];
  const changes = (await diff(oldSchema, newSchema)).map(classify);
  const breakages: Breakage[] = [];
  const usage = new Map<ShippedOperation, Set<string>>();
  for (const operation of operations) {
    if (!operation.document) {
      breakages.push({ operation, coordinate: null, reason: `not valid GraphQL: ${operation.parseError ?? 'unreadable'}` });
      continue;
    }
    usage.set(operation, new Set(coordinatesUsedBy(oldSchema, operation.document).map((use) => use.coordinate)));
  }

  const unusedBreaking: ClassifiedChange[] = [];
  const dangerous: CheckResult['dangerous'] = [];
  for (const change of changes) {
    if (change.severity === 'safe') continue;
    const usedBy = [...usage].filter(([, used]) => touches(change, used) !== null).map(([operation]) => operation);
    if (change.severity === 'dangerous') {
      dangerous.push({ change, usedBy });
      continue;
    }
    if (usedBy.length === 0) unusedBreaking.push(change);
    for (const operation of usedBy) breakages.push({ operation, coordinate: change.path, reason: change.message });
  }

  // What the diff cannot see (or sees as safe) but the service would refuse: validation on the new schema.
  for (const operation of usage.keys()) {
    const errors = current.validate(operation.document!);
    if (errors.length === 0) continue;
    const before = old.validate(operation.document!).length === 0 ? '' : ' (already invalid at the base)';
    for (const error of errors) {
      breakages.push({ operation, coordinate: null, reason: `does not validate: ${error.message}${before}` });
    }
  }
  return { changes, breakages, unusedBreaking, dangerous, operations };
}

// ---- shipped operations: manifests and .graphql files ----

/** A trusted-documents manifest as GraphQL Code Generator writes it, or Apollo's persisted query manifest. */
interface ApolloManifest {
  format: 'apollo-persisted-query-manifest';
  operations: Array<{ id: string; name?: string; body: string }>;
}

const isApolloManifest = (manifest: unknown): manifest is ApolloManifest =>
  typeof manifest === 'object' &&
  manifest !== null &&
  (manifest as { format?: unknown }).format === 'apollo-persisted-query-manifest' &&
  Array.isArray((manifest as { operations?: unknown }).operations);

/**
 * The operations of each source: a `.json` path is a manifest (`{ "<hash>": "<text>" }`, or Apollo's
 * persisted query manifest); anything else is a glob of `.graphql` files, read together so that an
 * operation may spread a fragment defined in another file.
 */
export function readShippedOperations(sources: readonly string[], cwd: string): ShippedOperation[] {
  const operations: ShippedOperation[] = [];
  for (const source of sources) {
    if (source.endsWith('.json')) operations.push(...readManifest(resolve(cwd, source), source));
    else operations.push(...readOperationFiles(source, cwd));
  }
  return operations;
}

function readManifest(path: string, source: string): ShippedOperation[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the manifest ${source}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw new Error(`the manifest ${source} is not a JSON object of documents`);
  }
  const entries: Array<[string, unknown]> = isApolloManifest(manifest)
    ? manifest.operations.map((operation) => [String(operation.id), operation.body])
    : Object.entries(manifest);
  return entries.map(([id, text]) => {
    if (typeof text !== 'string') return { name: '(not text)', id, source, document: null, parseError: 'the entry is not a string' };
    try {
      const document = parse(text);
      const names = document.definitions.flatMap((definition) =>
        definition.kind === Kind.OPERATION_DEFINITION ? [definition.name?.value ?? '(anonymous)'] : [],
      );
      return { name: names.join(', ') || '(no operation)', id, source, document };
    } catch (error) {
      return { name: '(unparsable)', id, source, document: null, parseError: (error as Error).message };
    }
  });
}

function readOperationFiles(pattern: string, cwd: string): ShippedOperation[] {
  const files = globSync(pattern, { cwd }).sort();
  const operations: Array<{ node: OperationDefinitionNode; file: string }> = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  const failed: ShippedOperation[] = [];
  for (const file of files) {
    const shown = relative(cwd, resolve(cwd, file));
    let document: DocumentNode;
    try {
      document = parse(readFileSync(resolve(cwd, file), 'utf8'));
    } catch (error) {
      failed.push({ name: '(unparsable)', id: shown, source: shown, document: null, parseError: (error as Error).message });
      continue;
    }
    for (const definition of document.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION) operations.push({ node: definition, file: shown });
      else if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
  }
  return [
    ...failed,
    ...operations.map(({ node, file }) => ({
      name: node.name?.value ?? '(anonymous)',
      id: file,
      source: file,
      document: { kind: Kind.DOCUMENT, definitions: [node, ...fragmentsSpreadBy(node, fragments)] } as DocumentNode,
    })),
  ];
}

// ---- reports ----

/** An operation by name and id, and where it came from when that is not its id. */
const label = (operation: ShippedOperation) =>
  `${operation.name} ${operation.id}${operation.source === operation.id ? '' : ` (${operation.source})`}`;

/** The breakages by operation, each operation once, in order of first breakage. */
function byOperation(breakages: readonly Breakage[]): Map<ShippedOperation, string[]> {
  const grouped = new Map<ShippedOperation, string[]>();
  for (const { operation, coordinate, reason } of breakages) {
    let reasons = grouped.get(operation);
    if (!reasons) grouped.set(operation, (reasons = []));
    reasons.push(coordinate ? `${coordinate}: ${reason}` : reason);
  }
  return grouped;
}

/** The result as lines for a terminal or a CI log. */
export function textReport(result: CheckResult, base: string): string {
  const count = (severity: Severity) => result.changes.filter((change) => change.severity === severity).length;
  const lines = [
    `schema:check: ${result.changes.length} change(s) from ${base} to the working tree: ` +
      `${count('breaking')} breaking, ${count('dangerous')} dangerous, ${count('safe')} safe; ` +
      `${result.operations.length} shipped operation(s) checked.`,
  ];
  for (const change of result.changes) lines.push(`  ${change.severity.padEnd(9)} ${change.message}${change.path ? `  [${change.path}]` : ''}`);
  for (const { change, usedBy } of result.dangerous) {
    if (usedBy.length) lines.push(`warning: dangerous change used by ${usedBy.map((operation) => operation.name).join(', ')}: ${change.message}`);
  }
  for (const change of result.unusedBreaking) {
    lines.push(`warning: breaking change that no shipped operation uses: ${change.message}${change.path ? ` [${change.path}]` : ''}`);
  }
  if (result.breakages.length === 0) {
    lines.push('ok: no shipped operation breaks.');
  } else {
    const broken = byOperation(result.breakages);
    lines.push(`error: ${broken.size} shipped operation(s) break:`);
    for (const [operation, reasons] of broken) {
      lines.push(`  ${label(operation)}`);
      for (const reason of reasons) lines.push(`    ${reason}`);
    }
  }
  return lines.join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The result as a pull request's summary (GitHub-flavoured Markdown). */
export function markdownReport(result: CheckResult, base: string): string {
  const broken = byOperation(result.breakages);
  const verdict =
    result.breakages.length > 0
      ? `**Fails**: ${broken.size} shipped operation(s) break.`
      : result.unusedBreaking.length > 0
        ? '**Passes with warnings**: breaking changes that no shipped operation uses.'
        : '**Passes**: no shipped operation breaks.';
  const lines = [
    `## Schema check against \`${base}\``,
    '',
    verdict,
    '',
    `${result.changes.length} change(s); ${result.operations.length} shipped operation(s) checked.`,
    '',
  ];
  if (result.changes.length > 0) {
    lines.push('| Severity | Change | Coordinate |', '|---|---|---|');
    for (const change of result.changes) lines.push(`| ${change.severity} | ${cell(change.message)} | ${change.path ? `\`${change.path}\`` : ''} |`);
    lines.push('');
  }
  if (result.breakages.length > 0) {
    lines.push('### Shipped operations this breaks', '');
    for (const [operation, reasons] of broken) {
      lines.push(`- \`${operation.name}\` \`${operation.id}\`${operation.source === operation.id ? '' : ` (${operation.source})`}`);
      for (const reason of reasons) lines.push(`  - ${cell(reason)}`);
    }
    lines.push('');
  }
  if (result.unusedBreaking.length > 0) {
    lines.push('### Breaking, but no shipped operation uses it', '');
    for (const change of result.unusedBreaking) lines.push(`- ${cell(change.message)}${change.path ? ` (\`${change.path}\`)` : ''}`);
    lines.push('');
  }
  return lines.join('\n');
}
