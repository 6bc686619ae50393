// The executable schema: the SDL files of schema/ with the resolver map. Built once at start.
import { readFileSync, readdirSync } from 'node:fs';
import type { GraphQLSchema } from 'graphql';
import { createSchema } from 'graphql-yoga';
import type { TradegraphContext } from './context.js';
import { resolvers } from './resolvers/index.js';

const SCHEMA_DIR = new URL('../schema/', import.meta.url);

export function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(new URL(file, SCHEMA_DIR), 'utf8'));
}

export function buildSchema(): GraphQLSchema {
  return createSchema<TradegraphContext>({ typeDefs: loadTypeDefs(), resolvers });
}
