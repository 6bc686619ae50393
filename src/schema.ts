// The executable schema: the SDL files of schema/ with the resolver map, built once at start as an
// Apollo Federation subgraph (the public fields plus `_service` and `_entities`).
import { readFileSync, readdirSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';

const SCHEMA_DIR = new URL('../schema/', import.meta.url);

/** The SDL of schema/ as one document. It uses federation directives: build it with buildSubgraphSchema. */
export function loadTypeDefs(): DocumentNode {
  const files = readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(new URL(file, SCHEMA_DIR), 'utf8'));
  return parse(files.join('\n'));
}

export function buildSchema(): GraphQLSchema {
  return buildSubgraphSchema([{ typeDefs: loadTypeDefs(), resolvers }]);
}
