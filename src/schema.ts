// The executable schema: the SDL files of schema/ with the resolver map, built once at start as an
// Apollo Federation subgraph (the public fields plus `_service` and `_entities`).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';
import { entities } from './resolvers/references.js';

const SCHEMA_DIR = new URL('../schema/', import.meta.url);

/**
 * The SDL files of a schema/ folder as one document, in file-name order. Also used by
 * `npm run schema:check` for the files of another revision, so both sides are read alike.
 */
export function typeDefsOf(files: ReadonlyArray<{ name: string; sdl: string }>): DocumentNode {
  const sorted = files.filter((file) => file.name.endsWith('.graphql')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return parse(sorted.map((file) => file.sdl).join('\n'));
}

/** The SDL files of a schema/ folder on disk. */
export function readSchemaFiles(dir: string = fileURLToPath(SCHEMA_DIR)): Array<{ name: string; sdl: string }> {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.graphql'))
    .map((name) => ({ name, sdl: readFileSync(join(dir, name), 'utf8') }));
}

/** The SDL of schema/ as one document. It uses federation directives: build it with buildSubgraphSchema. */
export function loadTypeDefs(): DocumentNode {
  return typeDefsOf(readSchemaFiles());
}

/**
 * The executable schema of the given SDL (schema/ when omitted). The prices the cost limit reads
 * are the SDL's `@cost` and `@listSize`: a schema built from other SDL is priced by it.
 */
export function buildSchema(typeDefs: DocumentNode = loadTypeDefs()): GraphQLSchema {
  // `_entities` is the library's, with each representation checked first (resolvers/references.ts).
  const withEntities = { ...resolvers, Query: { ...resolvers.Query, _entities: entities } };
  return buildSubgraphSchema([{ typeDefs, resolvers: withEntities as GraphQLResolverMap<unknown> }]);
}
