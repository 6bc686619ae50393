// GraphQL documents generated from the served schema: fields and arguments of the right and of the
// wrong type, variables, aliases, fragments and directives (@include, @skip, @defer, unknown ones).
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/** A literal for an input type: mostly fitting, sometimes not (a string for an Int, a huge number). */
function literal(type: GraphQLInputType, depth = 0): fc.Arbitrary<string> {
  const wrong = fc.constantFrom('null', '"x"', '-1', '0', '2147483648', '1.5', 'true', '[]', '{}', '"../.."', '"9007199254740993"');
  if (isNonNullType(type)) return literal(type.ofType, depth);
  if (isListType(type)) {
    return fc.oneof(
      { weight: 3, arbitrary: fc.array(literal(type.ofType, depth + 1), { maxLength: 3 }).map((values) => `[${values.join(', ')}]`) },
      { weight: 1, arbitrary: wrong },
    );
  }
  if (isEnumType(type)) return fc.oneof(fc.constantFrom(...type.getValues().map((value) => value.name)), wrong);
  if (isInputObjectType(type)) {
    if (depth > 2) return fc.constant('{}');
    const fields = Object.values(type.getFields());
    return fc.oneof(
      {
        weight: 3,
        arbitrary: fc.tuple(fc.subarray(fields), fc.integer({ min: 0, max: 9 })).map(([chosen, draw]) =>
          // Mostly every required field, sometimes one left out.
          draw > 0 ? [...fields.filter((field) => isNonNullType(field.type) && !chosen.includes(field)), ...chosen] : chosen,
        ).chain((chosen) => fc.tuple(...chosen.map((field) => literal(field.type, depth + 1).map((value) => `${field.name}: ${value}`)))).map((pairs) => `{ ${pairs.join(', ')} }`),
      },
      { weight: 1, arbitrary: wrong },
    );
  }
  if (isScalarType(type)) {
    const fitting: Record<string, fc.Arbitrary<string>> = {
      Int: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(730, 5, 1, 0, 100) }, { weight: 1, arbitrary: fc.integer({ min: -5, max: 120 }) }).map(String),
      Float: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((value) => String(value)),
      Boolean: fc.boolean().map(String),
      String: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('"76561198000000240"', '"76561198000000007"', '"player_1"') }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((text) => JSON.stringify(text)) }),
      ID: fc.oneof(fc.constantFrom('"WyJJbnZlbnRvcnkiLCI3NjU2MTE5ODAwMDAwMDI0MCIsNzMwXQ"', '"nope"'), fc.base64String({ maxLength: 40 }).map((text) => JSON.stringify(text))),
    };
    return fc.oneof({ weight: 20, arbitrary: fitting[type.name] ?? fc.string({ maxLength: 20 }).map((text) => JSON.stringify(text)) }, { weight: 1, arbitrary: wrong });
  }
  return wrong;
}

/** Arguments whose fitting values are few: mostly one the demo data answers, so that documents reach the partner. */
const LIKELY: Record<string, fc.Arbitrary<string>> = {
  appId: fc.constant('730'),
  platformId: fc.constantFrom('"76561198000000240"', '"76561198000000007"', '"76561198000000000"'),
  first: fc.constantFrom('0', '1', '2', '5', '20', '100'),
};

function argumentLiteral(arg: GraphQLArgument): fc.Arbitrary<string> {
  const likely = LIKELY[arg.name];
  return likely ? fc.oneof({ weight: 6, arbitrary: likely }, { weight: 1, arbitrary: literal(arg.type) }) : literal(arg.type);
}

function argumentsOf(args: readonly GraphQLArgument[]): fc.Arbitrary<string> {
  if (args.length === 0) return fc.constant('');
  return fc
    .subarray([...args], { minLength: 0 })
    .chain((chosen) =>
      fc.tuple(
        // Mostly every required argument, sometimes one left out.
        fc.integer({ min: 0, max: 9 }).map((draw) => (draw > 0 ? args.filter((arg) => isNonNullType(arg.type) && !chosen.includes(arg)) : [])),
        fc.constant(chosen),
      ),
    )
    .chain(([required, chosen]) => fc.tuple(...[...required, ...chosen].map((arg) => argumentLiteral(arg).map((value) => `${arg.name}: ${value}`))))
    .map((pairs) => (pairs.length ? `(${pairs.join(', ')})` : ''));
}

const directive = fc.oneof({ weight: 40, arbitrary: fc.constant('') }, { weight: 4, arbitrary: fc.constantFrom(' @include(if: true)', ' @skip(if: true)', ' @include(if: false)') }, { weight: 1, arbitrary: fc.constantFrom(' @nope', ' @skip(if: "yes")') });

/** A selection set of `type`, `depth` levels at most. */
function selectionSet(schema: GraphQLSchema, type: GraphQLObjectType, depth: number, aliasAll = ''): fc.Arbitrary<string> {
  const fields = Object.values(type.getFields());
  // [response name, text]: a field appears once per selection set under its own name, and now and
  // then again under an alias of its own, so that graphql-js's overlap rule is met only by design.
  const field: fc.Arbitrary<[string, string]> = fc
    .tuple(
      fc.oneof({ weight: 60, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.constant(null) }),
      fc.option(fc.constantFrom('x', 'y'), { freq: 6 }),
      directive,
    )
    .chain(([chosen, alias, dir]): fc.Arbitrary<[string, string]> => {
      const name = chosen?.name ?? 'notAField';
      const responseName = alias || aliasAll ? `${aliasAll}${alias ?? ''}_${name}` : name;
      const prefix = responseName === name ? '' : `${responseName}: `;
      if (chosen === null) return fc.constant([responseName, `${prefix}notAField${dir}`]);
      const named = getNamedType(chosen.type);
      const head = argumentsOf(chosen.args).map((args) => `${prefix}${chosen.name}${args}${dir}`);
      const text =
        isLeafType(named) ? head
        : depth <= 0 || !isObjectType(named) ? head.map((start) => `${start} { __typename }`)
        : fc.tuple(head, selectionSet(schema, named, depth - 1)).map(([start, inner]) => `${start} ${inner}`);
      return text.map((value): [string, string] => [responseName, value]);
    });
  const inline: fc.Arbitrary<[string, string]> =
    depth > 0
      ? fc
          .constantFrom(' @defer', ' @defer(label: "d")', '', ' @include(if: true)')
          .chain((dir) => selectionSet(schema, type, depth - 2, `in${depth}`).map((inner): [string, string] => [`...${dir}`, `... on ${type.name}${dir} ${inner}`]))
      : fc.constant(['__typename', '__typename']);
  return fc
    .uniqueArray(fc.oneof({ weight: 6, arbitrary: field }, { weight: 1, arbitrary: inline }), { minLength: 1, maxLength: depth >= 3 ? 2 : 3, selector: ([key]) => key })
    .map((items) => `{ ${items.map(([, text]) => text).join(' ')} }`);
}

/**
 * Moves the first inline fragment into a named fragment, spread where it stood with its directives
 * (`... on T @defer { … }` becomes `...F @defer` and `fragment F on T { … }`). A brace inside a
 * string value may end the wrong selection: that document is then malformed, which is input too.
 */
function nameFirstFragment(query: string): string {
  const start = query.indexOf('... on ');
  if (start < 0) return query;
  const open = query.indexOf('{', start);
  const [, type, directives] = /^\.\.\. on (\w+)(.*)$/.exec(query.slice(start, open).trim()) ?? [];
  if (!type) return query;
  let depth = 0;
  let close = open;
  for (; close < query.length; close++) {
    if (query[close] === '{') depth++;
    if (query[close] === '}' && --depth === 0) break;
  }
  const body = query.slice(open, close + 1);
  return `${query.slice(0, start)}...F${directives} ${query.slice(close + 1)} fragment F on ${type} ${body}`;
}

export interface GeneratedRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** Requests built from the schema's root types, with variables and a named fragment now and then. */
export function documentArbitrary(schema: GraphQLSchema): fc.Arbitrary<GeneratedRequest> {
  const query = schema.getQueryType()!;
  const mutation = schema.getMutationType();
  const operation = fc.oneof(
    { weight: 4, arbitrary: selectionSet(schema, query, 4).map((set) => `query Q ${set}`) },
    ...(mutation ? [{ weight: 1, arbitrary: selectionSet(schema, mutation, 2).map((set) => `mutation M ${set}`) }] : []),
  );
  const withVariables = fc.tuple(
    operation,
    fc.option(fc.record({ first: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 1, 2, 5, 20, 100) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 100 }) }, { weight: 1, arbitrary: fc.constantFrom(-1, 101, 'ten', null) }) }), { freq: 3 }),
    fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: fc.constant('own') }, { weight: 1, arbitrary: fc.constantFrom('Q', 'M', 'Other') }),
  );
  return fc.tuple(withVariables, fc.boolean()).map(([[generated, variables, operationName], named]) => {
    const text = named ? nameFirstFragment(generated) : generated;
    // A variable used where `first` may stand; declared, so that a wrong value is the variable's.
    const usesFirst = variables !== null && text.startsWith('query') && text.includes('items');
    const query = usesFirst ? text.replace(/^query Q/, 'query Q($first: Int)').replace(/\bitems(\([^)]*\))?(?![\w:])/, 'items(first: $first)') : text;
    return {
      query,
      ...(usesFirst ? { variables: variables as Record<string, unknown> } : {}),
      ...(operationName === 'own' ? { operationName: text.startsWith('query') ? 'Q' : 'M' } : operationName ? { operationName } : {}),
    };
  });
}
