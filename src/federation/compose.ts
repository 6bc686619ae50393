// Composes a supergraph (`npm run supergraph`): this service's subgraph and the others a deployment
// names in supergraph.config.json, by The Guild's federation composition, into the supergraph SDL
// that Hive Gateway serves. Imported by nothing in the service.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { composeServices, compositionHasErrors } from '@theguild/federation-composition';
import { parse, print } from 'graphql';
import { z } from 'zod';
import { readSchemaFiles, typeDefsOf } from '../schema.js';

const subgraphSchema = z.object({
  /** The subgraph's name in the supergraph. */
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'a subgraph name is letters, digits, "_" and "-"'),
  /** Where the gateway sends the subgraph's operations. */
  url: z.url({ error: 'an absolute URL, such as http://127.0.0.1:4000/graphql' }),
  /**
   * The subgraph's SDL: a file, or a folder of `.graphql` files (this service's `schema/`). When
   * absent, `url` is asked for it (`_service { sdl }`), so that subgraph must be running.
   */
  sdl: z.string().min(1).optional(),
});

const configSchema = z.object({
  /** Where the supergraph SDL is written. */
  output: z.string({ error: 'a file to write the supergraph to' }).min(1, 'a file to write the supergraph to'),
  subgraphs: z.array(subgraphSchema).min(1),
});

export type SubgraphSource = z.infer<typeof subgraphSchema>;
export type SupergraphConfig = z.infer<typeof configSchema>;

export class SupergraphError extends Error {}

/** Reads a config file; its relative paths are taken from the config file's folder. */
export function readSupergraphConfig(path: string): SupergraphConfig {
  const parsed = configSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new SupergraphError(`${path} is not a supergraph config:\n  ${problems.join('\n  ')}`);
  }
  const base = dirname(resolve(path));
  return {
    output: resolve(base, parsed.data.output),
    subgraphs: parsed.data.subgraphs.map((subgraph) => ({
      ...subgraph,
      ...(subgraph.sdl === undefined ? {} : { sdl: resolve(base, subgraph.sdl) }),
    })),
  };
}

/** The SDL of one subgraph, from its file or folder, or from the running subgraph itself. */
export async function loadSubgraphSdl(source: SubgraphSource): Promise<string> {
  if (source.sdl !== undefined) {
    if (!statSync(source.sdl).isDirectory()) return readFileSync(source.sdl, 'utf8');
    // A folder is read as the service reads schema/ (schema.ts), in the same order.
    return print(typeDefsOf(readSchemaFiles(source.sdl)));
  }
  const response = await fetch(source.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) => {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new SupergraphError(`Subgraph '${source.name}' at ${source.url} could not be asked for its SDL: ${cause}.`);
  });
  const body = (await response.json().catch(() => null)) as { data?: { _service?: { sdl?: unknown } } } | null;
  const sdl = body?.data?._service?.sdl;
  if (typeof sdl !== 'string') {
    throw new SupergraphError(`Subgraph '${source.name}' at ${source.url} answered no _service { sdl } (HTTP ${response.status}).`);
  }
  return sdl;
}

/** The supergraph SDL of the given subgraphs; every composition error is in the thrown message. */
export function composeSupergraph(subgraphs: Array<{ name: string; url: string; sdl: string }>): string {
  return compose(subgraphs).supergraphSdl;
}

/** The schema clients of the composed supergraph see: its SDL without the federation's own types. */
export function composeApiSchema(subgraphs: Array<{ name: string; url: string; sdl: string }>): string {
  return compose(subgraphs).publicSdl;
}

function compose(subgraphs: Array<{ name: string; url: string; sdl: string }>) {
  const result = composeServices(subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) })));
  if (compositionHasErrors(result)) {
    throw new SupergraphError(`The subgraphs do not compose:\n  ${result.errors.map((error) => error.message).join('\n  ')}`);
  }
  return result;
}

/** Composes the subgraphs a config names and writes the supergraph; answers where it went. */
export async function writeSupergraph(config: SupergraphConfig): Promise<string> {
  const subgraphs = await Promise.all(
    config.subgraphs.map(async (source) => ({ name: source.name, url: source.url, sdl: await loadSubgraphSdl(source) })),
  );
  writeFileSync(config.output, `${composeSupergraph(subgraphs)}\n`);
  return config.output;
}
