// The executable schema: the SDL files of schema/ with the resolver map, built once at start as an
// Apollo Federation subgraph (the public fields plus `_service` and `_entities`).
import { readFileSync, readdirSync } from 'node:fs';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';
import { entities } from './resolvers/references.js';

const SCHEMA_DIR = new URL('../schema/', import.meta.url);

/** The SDL of schema/ as one document. It uses federation directives: build it with buildSubgraphSchema. */
export function loadTypeDefs(): DocumentNode {
  const files = readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(new URL(file, SCHEMA_DIR), 'utf8'));
  return parse(files.join('\n'));
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
