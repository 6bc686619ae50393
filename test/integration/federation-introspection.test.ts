// Introspection over HTTP, as GraphiQL and codegen send it, in development: the schema a front-end
// developer works with, without the subgraph's federation internals unless the request asks for
// them; a gateway's `_service { sdl }` still gets the whole subgraph.
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { FEDERATION_HEADER } from '../../src/plugins/federation-introspection.js';
import { useTestkit, type GraphQLResponse } from '../support/testkit.js';

const kit = useTestkit({ config: { production: false } });

const INTERNAL_TYPES = /^(_Any|_Entity|_Service|link__.*|federation__.*)$/;
const INTERNAL_DIRECTIVES = /^(link|key|federation__.*)$/;

async function introspect(headers: Record<string, string> = {}, search = ''): Promise<IntrospectionQuery> {
  const response = await fetch(`${kit().graphqlUrl}${search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' }),
  });
  expect(response.status).toBe(200);
  const result = (await response.json()) as GraphQLResponse<IntrospectionQuery>;
  expect(result.errors).toBeUndefined();
  return result.data!;
}

async function query(text: string): Promise<GraphQLResponse<Record<string, unknown>>> {
  return (await (await kit().post({ query: text })).json()) as GraphQLResponse<Record<string, unknown>>;
}

describe('introspection without federation internals', () => {
  it('shows the API only: no federation types, Query fields or directives', async () => {
    const schema = buildClientSchema(await introspect());
    const typeNames = Object.keys(schema.getTypeMap());
    expect(typeNames.filter((name) => INTERNAL_TYPES.test(name))).toEqual([]);
    expect(typeNames).toEqual(expect.arrayContaining(['Inventory', 'InventoryItem', 'DateTime', 'Mutation']));
    expect(Object.keys(schema.getQueryType()!.getFields()).sort()).toEqual(['inventory', 'node']);
    expect(schema.getDirectives().map((directive) => directive.name).filter((name) => INTERNAL_DIRECTIVES.test(name))).toEqual([]);
    expect(schema.getDirective('include')).toBeDefined();
    // Descriptions and deprecations survive the view.
    expect(schema.getType('Inventory')!.description).toBeTruthy();
  });

  it.each([
    ['the header', { [FEDERATION_HEADER]: '1' }, ''],
    ['the query parameter', {}, '?federation=1'],
  ])('shows the whole subgraph schema when %s asks', async (_how, headers, search) => {
    const schema = buildClientSchema(await introspect(headers, search));
    expect(Object.keys(schema.getTypeMap())).toEqual(expect.arrayContaining(['_Any', '_Entity', '_Service', 'link__Import']));
    expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(expect.arrayContaining(['_service', '_entities']));
    expect(schema.getDirective('key')).toBeDefined();
  });

  it('answers __type of a federation type with null', async () => {
    expect(await query('{ __type(name: "_Any") { name } }')).toEqual({ data: { __type: null }, extensions: { cost: expect.any(Object) } });
    expect(await query('{ __type(name: "Inventory") { name } }')).toEqual({ data: { __type: { name: 'Inventory' } }, extensions: { cost: expect.any(Object) } });
  });

  it("still answers the gateway's _service { sdl }, with the federation directives", async () => {
    const result = await query('{ _service { sdl } }');
    expect(result.errors).toBeUndefined();
    expect((result.data!._service as { sdl: string }).sdl).toMatch(/@key\(fields: "id"\)/);
  });
});
