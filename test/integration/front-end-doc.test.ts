// docs/front-end.md holds: each Authorization of its error table gives the answer and code it
// says against the simulator, and each money field of its table has the GraphQL type it says.
import { readFileSync } from 'node:fs';
import { buildSchema, isInputObjectType, isObjectType, type GraphQLField } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_APP_ID, DEMO_PLATFORM_ID } from '../../src/simulator/data.js';
import { useTestkit } from '../support/testkit.js';

const PAGE = readFileSync(new URL('../../docs/front-end.md', import.meta.url), 'utf8');
const SCHEMA = buildSchema(readFileSync(new URL('../../src/generated/schema.graphql', import.meta.url), 'utf8'));
const kit = useTestkit();

/** The rows of the table under a heading, as cells. */
function rowsUnder(heading: string): string[][] {
  const section = PAGE.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`no section ${heading}`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('|---'))
    .slice(1)
    .map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()));
}

const QUERY = `{ inventory(platformId: "${DEMO_PLATFORM_ID}", appId: ${DEMO_APP_ID}) { totalCount } }`;

describe('docs/front-end.md', () => {
  const errorRows = rowsUnder('Errors to try');

  it('lists the simulator tokens for 401 and 403 and no token', () => {
    expect(errorRows.map(([authorization]) => authorization)).toEqual(
      expect.arrayContaining(['none', expect.stringContaining('`Bearer expired'), expect.stringContaining('`Bearer forbidden')]),
    );
  });

  it.each(errorRows.map((row) => [row[0]!, row[2]!] as const))('with Authorization %s answers %s', async (authorization, code) => {
    const token = authorization === 'none' ? null : /`Bearer ([^`]+)`/.exec(authorization)![1]!;
    const response = await kit().post({ query: QUERY }, { token });
    const body = (await response.json()) as { data?: unknown; errors?: { extensions: { code: string } }[] };
    if (code === '—') {
      expect(response.status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual({ inventory: { totalCount: expect.any(Number) } });
    } else {
      expect(body.errors?.map((error) => error.extensions.code)).toEqual([code.replace(/`/g, '')]);
    }
  });

  it.each(rowsUnder('Money fields').map((row) => [row[0]!, row[1]!] as const))('%s has the type it says: %s', (fields, type) => {
    const named = /^`(\w+)`/.exec(type)![1]!;
    for (const [, parent, field] of fields.matchAll(/`(?:(\w+)\.)?(\w+)(?:\(price:\))?`/g)) {
      // `listingFee(price:)` names the argument of InventoryItem.listingFee; the others name a field.
      const owner = SCHEMA.getType(parent ?? 'InventoryItem');
      if (!isObjectType(owner) && !isInputObjectType(owner)) throw new Error(`${parent} is not an object type`);
      const found = owner.getFields()[field!]!;
      const type = parent === undefined ? (found as GraphQLField<unknown, unknown>).args.find((arg) => arg.name === 'price')!.type : found.type;
      expect(String(type).replace(/!$/, '')).toBe(named);
    }
  });
});
