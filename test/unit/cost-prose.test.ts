// The SDL's descriptions tell clients what a field costs ("Costs N", "plus N per …", "Each costs
// N"); the price the service charges is the `@cost(weight:)` beside them. Every figure the prose
// states is checked against the directive it describes, and every `@cost` of a field is stated.
import { Kind, parse, print, visit, type ConstDirectiveNode, type DocumentNode, type InputValueDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadTypeDefs } from '../../src/schema.js';

/** A definition's `@cost(weight:)`, or null without one. */
function weightOf(directives: readonly ConstDirectiveNode[] | undefined): number | null {
  const cost = directives?.find((directive) => directive.name.value === 'cost');
  const weight = cost?.arguments?.find((argument) => argument.name.value === 'weight')?.value;
  return weight?.kind === Kind.INT ? Number(weight.value) : null;
}

/** Every figure a description states with `pattern` (its first group). */
const figures = (description: string | undefined, pattern: RegExp): number[] =>
  [...(description ?? '').matchAll(pattern)].map((match) => Number(match[1]));

const COSTS = /\bcosts (\d+)/gi;
const PLUS_PER = /\bplus (\d+) per\b/gi;

/** Each definition's prose against its directive: "where: stated vs @cost". */
function mismatches(typeDefs: DocumentNode): string[] {
  const found: string[] = [];
  // The weights of each input type's fields, for a field whose argument is of that type.
  const inputWeights = new Map<string, number[]>();
  visit(typeDefs, {
    InputObjectTypeDefinition(node) {
      const weights = (node.fields ?? []).map((field) => weightOf(field.directives)).filter((weight) => weight !== null);
      inputWeights.set(node.name.value, weights);
    },
  });
  const argumentWeights = (args: readonly InputValueDefinitionNode[] | undefined): number[] =>
    (args ?? []).flatMap((argument) => {
      const own = weightOf(argument.directives);
      let type = argument.type;
      while (type.kind !== Kind.NAMED_TYPE) type = type.type;
      return [...(own === null ? [] : [own]), ...(inputWeights.get(type.name.value) ?? [])];
    });
  const check = (where: string, description: string | undefined, weight: number | null, perItem: number[], isField: boolean) => {
    const stated = figures(description, COSTS);
    if (weight === null && stated.length > 0) found.push(`${where}: states costs ${stated.join(', ')} without @cost`);
    if (weight !== null && stated[0] !== weight && (isField || stated.length > 0)) found.push(`${where}: states ${stated[0] ?? 'no cost'} vs @cost ${weight}`);
    for (const per of figures(description, PLUS_PER)) {
      if (!perItem.includes(per)) found.push(`${where}: states plus ${per} per item vs @cost ${perItem.join(', ') || 'none'} of its arguments`);
    }
  };
  visit(typeDefs, {
    FieldDefinition(node, _key, _parent, _path, ancestors) {
      const type = ancestors[ancestors.length - 1] as { name?: { value: string } };
      const where = `${type.name?.value}.${node.name.value}`;
      check(where, node.description?.value, weightOf(node.directives), argumentWeights(node.arguments), true);
      for (const argument of node.arguments ?? []) {
        check(`${where}(${argument.name.value})`, argument.description?.value, weightOf(argument.directives), [], false);
      }
    },
    InputObjectTypeDefinition(node) {
      for (const field of node.fields ?? []) {
        check(`${node.name.value}.${field.name.value}`, field.description?.value, weightOf(field.directives), [], false);
      }
    },
  });
  return found;
}

describe("the SDL's cost prose", () => {
  it('states the @cost of every field, and no figure the directives do not charge', () => {
    expect(mismatches(loadTypeDefs())).toEqual([]);
  });

  it('finds a figure that differs from its directive', () => {
    const edited = (from: string, to: string) => {
      const printed = print(loadTypeDefs());
      expect(printed).toContain(from);
      return parse(printed.replace(from, to));
    };
    expect(mismatches(edited('Costs 2 (one partner call', 'Costs 3 (one partner call'))).toEqual([expect.stringMatching(/^Query\.node: states 3 vs @cost 2/)]);
    expect(mismatches(edited('Costs 1 plus 1 per input item', 'Costs 1 plus 2 per input item'))).toEqual([
      expect.stringMatching(/^Mutation\.calculateListingFee: states plus 2 per item/),
    ]);
    expect(mismatches(edited('Each costs 1.', 'Each costs 5.'))).toEqual([expect.stringMatching(/^CalculateListingFeeInput\.items: states 5 vs @cost 1/)]);
  });
});
