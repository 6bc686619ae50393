// Prices an operation by the partner work it would cause: pure functions of a schema, a document
// and a request's variables, shared by the cost limit (plugins/operation-cost.ts), the rate limit,
// trusted documents and the answer's extensions.cost. The prices are the schema's own: each
// field's `@cost(weight:)` and `@listSize` (the demand-control directives a federation gateway
// reads from the same SDL), read once per schema; the few the SDL cannot hold are policy.ts's.
// Runs with the request's own variables, so `items(first: $n)` costs what $n says. The walk of the
// document happens once per document; a request only evaluates its price.
import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  isCompositeType,
  isInputObjectType,
  isInputType,
  isLeafType,
  typeFromAST,
  valueFromAST,
  isObjectType,
  isInterfaceType,
  Kind,
  visit,
  type ASTNode,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLArgument,
  type GraphQLInputField,
  type SelectionNode,
  type VariableDefinitionNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { APP_KEY_FIELDS, ENTITIES_FIELD, ENTITY_PRICED_AS, MAX_SLICE } from './policy.js';

/**
 * What an operation will cost, as its plan works it out under one request's variables: `cost` in
 * units of partner work, and `representations`, how many entity references its `_entities`
 * fields name (each one an object fetched from the root, as an aliased `node(id:)` is).
 */
export interface OperationPrice {
  cost: number;
  representations: number;
  /** The part of `cost` spent with the merchant's app-key alone (APP_KEY_FIELDS), whoever the caller is. */
  appKeyCost: number;
  /**
   * The first argument that asks for more elements than any list answers (MAX_SLICE), or a slice
   * below 0: its resolver would refuse it, so the operation is refused before it is charged.
   */
  outOfRange: OutOfRange | null;
}

/** An argument whose size no resolver takes: `items(first: 101)`, a fee mutation of 101 items. */
export interface OutOfRange {
  /** The field the argument belongs to, as the document names it (its alias when it has one). */
  field: string;
  /** The argument, then the input fields below it: `first`, `input.items`. */
  argument: string;
  /** The slice asked for, or the elements the list holds. */
  size: number;
  /** A slicing argument (a number of elements) rather than a list of them. */
  slicing: boolean;
}

/**
 * A part of an operation's price as a function of its variables: `size` is the size of the list
 * that the enclosing field's `@listSize(sizedFields:)` hands to its sized fields (a page's `first`),
 * so that what is asked below a connection's `edges` and `nodes` is paid once per item.
 */
type Price = (variables: Record<string, unknown>, size: number) => number;

/**
 * What pricing one operation needs, worked out once per parsed document and operation name (Yoga's
 * parse cache hands back the same DocumentNode for the same text): the price function and the
 * variables it reads, so that a request coerces at most those, and only the cheap ones.
 */
interface PricePlan {
  price: Price;
  /** The part of the price spent on APP_KEY_FIELDS. */
  appKeyPrice: Price;
  /** How many representations the operation's `_entities` fields name. */
  representations: Price;
  /** Read variables of scalar (leaf) types: coerced per request, and cheap to coerce. */
  scalarDefinitions: VariableDefinitionNode[];
  /**
   * Read variables of input object types (a mutation's `input`), by name with their default. The
   * price reads only their shape (how many items); coercing them, which is most of what a
   * 20-item mutation's price cost, is left to execution, which refuses a bad one anyway.
   */
  inputVariables: Array<readonly [name: string, fallback: unknown]>;
  /** Prices by the JSON of the scalar variables, when the price reads no input object. */
  prices: Map<string, OperationPrice | null>;
  /** Where the plan's price functions note an argument out of range as they evaluate (evaluate resets it). */
  outOfRange: OutOfRangeSlot;
}

/** Written by the price functions of included fields only, so a `@skip`ped field's argument is never refused. */
interface OutOfRangeSlot {
  found: OutOfRange | null;
}

/** Distinct variable values remembered per plan; the cache starts over when it is full. */
const MAX_COSTS_PER_PLAN = 256;

/** Plans by schema, parsed document and operation name. */
const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, PricePlan | null>>>();

/**
 * The cost of one operation of a valid document under the given (raw) variables; null when the
 * scalar variables it reads do not coerce (execution refuses those before any resolver runs).
 */
export function operationCost(...operation: Parameters<typeof operationPrice>): number | null {
  return operationPrice(...operation)?.cost ?? null;
}

/** The cost and the entity representations of one operation; null as for operationCost. */
export function operationPrice(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Record<string, unknown> | null | undefined,
): OperationPrice | null {
  let byDocument = plans.get(schema);
  if (!byDocument) plans.set(schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  if (!byName) byDocument.set(document, (byName = new Map()));
  let plan = byName.get(operationName ?? '');
  if (plan === undefined) {
    plan = planOf(schema, document, operationName);
    byName.set(operationName ?? '', plan);
  }
  if (!plan) return null;
  if (!rawVariables) return priceUnder(schema, plan, {});
  const last = lastPrices.get(rawVariables);
  if (last?.plan === plan) return last.price;
  const price = priceUnder(schema, plan, rawVariables);
  lastPrices.set(rawVariables, { plan, price });
  return price;
}

/**
 * The price last worked out for an execution's variables object: the cost limit and the rate limit
 * both price the same execution, with the same object.
 */
const lastPrices = new WeakMap<Record<string, unknown>, { plan: PricePlan; price: OperationPrice | null }>();

function priceUnder(schema: GraphQLSchema, plan: PricePlan, raw: Record<string, unknown>): OperationPrice | null {
  if (plan.inputVariables.length > 0) {
    const variables = scalarVariables(schema, plan, raw);
    if (!variables) return null;
    for (const [name, fallback] of plan.inputVariables) variables[name] = raw[name] === undefined ? fallback : raw[name];
    try {
      return evaluate(plan, variables);
    } catch (error) {
      // An argument built from uncoerced input (`input: { items: $items }` with items null) does
      // not fit its type: execution refuses it with BAD_USER_INPUT before any resolver runs.
      if (error instanceof GraphQLError) return null;
      throw error;
    }
  }
  // A plan that reads no variable has one price, kept under the key of no values ("[]"): every
  // plugin that prices the execution (the cost limit, the rate limit, extensions.cost) reads it
  // from here, with or without a variables object. A missing variable ([]: its default applies)
  // and a null one ([null]) are different keys.
  const key = JSON.stringify(
    plan.scalarDefinitions.map((definition) => {
      const value = raw[definition.variable.name.value];
      return value === undefined ? [] : [value];
    }),
  );
  let price = plan.prices.get(key);
  if (price !== undefined) return price;
  const variables = scalarVariables(schema, plan, raw);
  price = variables ? evaluate(plan, variables) : null;
  if (plan.prices.size >= MAX_COSTS_PER_PLAN) plan.prices.clear();
  plan.prices.set(key, price);
  return price;
}

function evaluate(plan: PricePlan, variables: Record<string, unknown>): OperationPrice {
  plan.outOfRange.found = null;
  const cost = plan.price(variables, 1);
  return { cost, representations: plan.representations(variables, 1), appKeyCost: plan.appKeyPrice(variables, 1), outOfRange: plan.outOfRange.found };
}

function scalarVariables(schema: GraphQLSchema, plan: PricePlan, raw: Record<string, unknown>): Record<string, unknown> | null {
  if (plan.scalarDefinitions.length === 0) return {};
  // getVariableValues answers a new object each time: the caller may add to it.
  const coerced = getVariableValues(schema, plan.scalarDefinitions, raw);
  return coerced.errors ? null : coerced.coerced;
}

interface Compile {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  /** Names of the variables the price reads. */
  reads: Set<string>;
  /** The representation counts of the operation's `_entities` fields, as they are met. */
  representations: Price[];
  /**
   * Pricing only what APP_KEY_FIELDS cost: every other field weighs 0 (its lists still multiply
   * what is asked below them) until a field of the set, which is priced whole.
   */
  appKeyOnly: boolean;
  outOfRange: OutOfRangeSlot;
}

function planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): PricePlan | null {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName
    ? operations.find((candidate) => candidate.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) return null;
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return null;
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const compile: Compile = { schema, fragments, reads: new Set(), representations: [], appKeyOnly: false, outOfRange: { found: null } };
  const price = selectionSetPrice(compile, operation.selectionSet, rootType, NOTHING_SIZED) ?? FREE;
  // The same walk again for the app-key part; its representations were counted by the first.
  const appKeyCompile: Compile = { ...compile, representations: [], appKeyOnly: true };
  const plan: PricePlan = {
    price,
    appKeyPrice: selectionSetPrice(appKeyCompile, operation.selectionSet, rootType, NOTHING_SIZED) ?? FREE,
    representations: sumOf(compile.representations) ?? FREE,
    scalarDefinitions: [],
    inputVariables: [],
    prices: new Map(),
    outOfRange: compile.outOfRange,
  };
  for (const definition of operation.variableDefinitions ?? []) {
    if (!compile.reads.has(definition.variable.name.value)) continue;
    const type = typeFromAST(schema, definition.type);
    if (isLeafType(getNamedType(type))) {
      plan.scalarDefinitions.push(definition);
    } else {
      const fallback = definition.defaultValue && type && isInputType(type) ? valueFromAST(definition.defaultValue, type) : undefined;
      plan.inputVariables.push([definition.variable.name.value, fallback]);
    }
  }
  return plan;
}

const FREE: Price = () => 0;
const NOTHING_SIZED: ReadonlySet<string> = new Set();

function sumOf(parts: Price[]): Price | null {
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0]!;
  return (variables, size) => {
    let sum = 0;
    for (const part of parts) sum += part(variables, size);
    return sum;
  };
}

/**
 * The price of a selection set: the sum of its fields' prices. Fragments on every possible type
 * are all counted (an upper bound); `@skip`/`@include` are honoured. `sized` names the fields that
 * the enclosing field's `@listSize` sizes. Null when nothing below can cost anything, so that free
 * subtrees cost nothing per request either.
 */
function selectionSetPrice(
  compile: Compile,
  selectionSet: SelectionSetNode,
  parentType: GraphQLCompositeType,
  sized: ReadonlySet<string>,
): Price | null {
  const parts: Price[] = [];
  for (const selection of selectionSet.selections) {
    const part = selectionPrice(compile, selection, parentType, sized);
    if (!part) continue;
    const included = inclusionOf(compile, selection);
    if (included === false) continue;
    parts.push(included === true ? part : (variables, size) => (included(variables) ? part(variables, size) : 0));
  }
  return sumOf(parts);
}

function selectionPrice(
  compile: Compile,
  selection: SelectionNode,
  parentType: GraphQLCompositeType,
  sized: ReadonlySet<string>,
): Price | null {
  if (selection.kind === Kind.INLINE_FRAGMENT) {
    const type = selection.typeCondition ? compile.schema.getType(selection.typeCondition.name.value) : parentType;
    return type && isCompositeType(type) ? selectionSetPrice(compile, selection.selectionSet, type, sized) : null;
  }
  if (selection.kind === Kind.FRAGMENT_SPREAD) {
    const fragment = compile.fragments.get(selection.name.value);
    const type = fragment && compile.schema.getType(fragment.typeCondition.name.value);
    return fragment && type && isCompositeType(type) ? selectionSetPrice(compile, fragment.selectionSet, type, sized) : null;
  }
  if (!isObjectType(parentType) && !isInterfaceType(parentType)) return null;
  const field = parentType.getFields()[selection.name.value];
  if (!field) return null;
  // Below a field of the app-key set, everything counts toward the app-key part.
  const within = compile.appKeyOnly && APP_KEY_FIELDS.has(`${parentType.name}.${field.name}`) ? { ...compile, appKeyOnly: false } : compile;
  const price =
    parentType === compile.schema.getQueryType() && field.name === ENTITIES_FIELD
      ? entitiesPrice(within, field, selection)
      : fieldPrice(within, field, selection);
  // A sized field (a connection's `edges`, `nodes`) holds as many elements as its parent's slice.
  if (!price || !sized.has(field.name)) return price;
  return (variables, size) => size * price(variables, 1);
}

/**
 * One field's price from its schema prices (see pricesOf): its weight and its priced arguments;
 * what is asked below it is paid once per element of a list it returns, or once per element of
 * the lists it sizes (`sizedFields`).
 */
function fieldPrice(compile: Compile, field: GraphQLField<unknown, unknown>, node: FieldNode): Price | null {
  const prices = pricesOf(compile.schema, field);
  const { listSize } = prices;
  const { weight, inputs } = compile.appKeyOnly ? UNPRICED : prices;
  const childType = getNamedType(field.type);
  const sizedFields = listSize?.sizedFields ?? NOTHING_SIZED;
  const children =
    node.selectionSet && isCompositeType(childType) ? selectionSetPrice(compile, node.selectionSet, childType, sizedFields) : null;
  const slice = listSize ? sliceOf(compile, field, node, listSize) : () => 1;
  const input = inputPriceOf(compile, field, node, inputs);
  if (!listSize && !input) {
    if (weight === 0) return children;
    return children ? (variables) => weight + children(variables, 1) : () => weight;
  }
  // A free list with nothing priced below it (the fee payload's `fees`) costs nothing per request.
  if (weight === 0 && !input && !children) return null;
  return (variables) => {
    const size = slice(variables);
    const arguments_ = input ? input(variables, size) : 0;
    if (sizedFields.size > 0) return weight + arguments_ + (children ? children(variables, size) : 0);
    return size * (weight + (children ? children(variables, 1) : 0)) + arguments_;
  };
}

/**
 * What a field's priced arguments cost under the variables: a slicing argument's weight once per
 * element it asks for (`size`, the items the partner reads), any other's once per element it
 * holds (an input list such as the fee mutation's `items`), or once when it is a single value.
 */
function inputPriceOf(compile: Compile, field: GraphQLField<unknown, unknown>, node: FieldNode, inputs: readonly PricedInput[]): Price | null {
  if (inputs.length === 0) return null;
  const parts = inputs.map(({ path: [name, ...rest], weight, slicing }): Price => {
    if (slicing) return (_variables, size) => weight * size;
    const value = argumentOf(compile, field, node, name!);
    const argument = [name!, ...rest].join('.');
    return (variables) => {
      const elements = elementsAt(value(variables), rest);
      if (elements > MAX_SLICE) noteOutOfRange(compile, { field: fieldNameOf(field, node), argument, size: elements, slicing: false });
      return weight * Math.min(elements, MAX_SLICE);
    };
  });
  return sumOf(parts);
}

/** How many elements a value holds at a path of input fields: a list its length, a single value 1. */
function elementsAt(value: unknown, path: readonly string[]): number {
  if (value === undefined || value === null) return 0;
  if (Array.isArray(value)) return path.length === 0 ? value.length : value.reduce((sum: number, element) => sum + elementsAt(element, path), 0);
  if (path.length === 0) return 1;
  return typeof value === 'object' ? elementsAt((value as Record<string, unknown>)[path[0]!], path.slice(1)) : 0;
}

/**
 * `_entities(representations:)`: each representation is priced at the weight of the Query field
 * policy.ts names (ENTITY_PRICED_AS), plus what is asked of it. Every fragment is counted for
 * every representation (an upper bound).
 */
function entitiesPrice(compile: Compile, field: GraphQLField<unknown, unknown>, node: FieldNode): Price {
  const nodeField = compile.schema.getQueryType()?.getFields()[ENTITY_PRICED_AS];
  const weight = nodeField && !compile.appKeyOnly ? pricesOf(compile.schema, nodeField).weight : 0;
  const childType = getNamedType(field.type);
  const children =
    node.selectionSet && isCompositeType(childType) ? selectionSetPrice(compile, node.selectionSet, childType, NOTHING_SIZED) : null;
  const representations = argumentOf(compile, field, node, 'representations');
  // Read once per evaluation though both the price and the representation count ask for it:
  // evaluate() asks both of the same variables object, one after the other.
  let countedFor: Record<string, unknown> | undefined;
  let counted = 0;
  const count: Price = (variables) => {
    if (variables !== countedFor) {
      const value = representations(variables);
      counted = Array.isArray(value) ? value.length : 0;
      countedFor = variables;
    }
    return counted;
  };
  compile.representations.push(count);
  return (variables) => count(variables, 1) * (weight + (children ? children(variables, 1) : 0));
}

/** How a field is priced in the schema. */
interface FieldPrices {
  /** `@cost(weight:)` of the field; 0 without one (a field that costs the partner nothing). */
  weight: number;
  listSize: ListSize | null;
  /** The field's arguments, and input fields below them, that carry `@cost`. */
  inputs: PricedInput[];
}

interface ListSize {
  /** `assumedSize`: the size when no slicing argument is given. */
  assumedSize: number;
  /** `slicingArguments`: the field's Int arguments whose value is the size. */
  slicingArguments: string[];
  sizedFields: ReadonlySet<string>;
}

interface PricedInput {
  /** The argument's name, then the input fields below it. */
  path: string[];
  weight: number;
  /** A slicing argument: paid per element of the slice, given or assumed. */
  slicing: boolean;
}

/** What a field outside the app-key set weighs in the app-key part of a price. */
const UNPRICED = { weight: 0, inputs: [] as PricedInput[] };

/** Field prices by field, read from the directives once per schema (each schema has its own fields). */
const fieldPrices = new WeakMap<GraphQLField<unknown, unknown>, FieldPrices>();

/**
 * A field's `@cost` and `@listSize`, and its priced arguments, as written in the SDL:
 * buildSubgraphSchema keeps the AST of each field, argument and input field on `astNode`.
 */
export function pricesOf(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): FieldPrices {
  let prices = fieldPrices.get(field);
  if (prices) return prices;
  const listSizeArguments = directiveArguments(schema, field.astNode?.directives, LIST_SIZE_DIRECTIVE);
  const listSize: ListSize | null = listSizeArguments && {
    assumedSize: (listSizeArguments.assumedSize as number | undefined) ?? 1,
    slicingArguments: (listSizeArguments.slicingArguments as string[] | undefined) ?? [],
    sizedFields: new Set((listSizeArguments.sizedFields as string[] | undefined) ?? []),
  };
  const inputs: PricedInput[] = [];
  for (const argument of field.args) {
    const slicing = listSize?.slicingArguments.includes(argument.name) ?? false;
    collectPricedInputs(schema, [argument.name], argument, slicing, new Set(), inputs);
  }
  prices = { weight: weightOf(schema, field.astNode?.directives), listSize, inputs };
  fieldPrices.set(field, prices);
  return prices;
}

function collectPricedInputs(
  schema: GraphQLSchema,
  path: string[],
  definition: GraphQLArgument | GraphQLInputField,
  slicing: boolean,
  seen: Set<string>,
  into: PricedInput[],
): void {
  const weight = weightOf(schema, definition.astNode?.directives);
  if (weight > 0) into.push({ path, weight, slicing });
  const type = getNamedType(definition.type);
  if (slicing || !isInputObjectType(type) || seen.has(type.name)) return;
  // A recursive input type is followed once: its price cannot depend on unbounded nesting.
  const below = new Set(seen).add(type.name);
  for (const inputField of Object.values(type.getFields())) collectPricedInputs(schema, [...path, inputField.name], inputField, false, below, into);
}

const COST_DIRECTIVE = 'cost';
const LIST_SIZE_DIRECTIVE = 'listSize';

function weightOf(schema: GraphQLSchema, directives: readonly ConstDirectiveNode[] | undefined): number {
  return (directiveArguments(schema, directives, COST_DIRECTIVE)?.weight as number | undefined) ?? 0;
}

/** A directive's arguments as the schema's definition of it coerces them; null when not applied. */
function directiveArguments(
  schema: GraphQLSchema,
  directives: readonly ConstDirectiveNode[] | undefined,
  name: string,
): Record<string, unknown> | null {
  const definition = schema.getDirective(name);
  if (!definition || !directives?.some((directive) => directive.name.value === name)) return null;
  return getDirectiveValues(definition, { directives }) ?? null;
}

/**
 * The size of a field's slice under the request's variables: the largest slicing argument given,
 * clamped to [0, MAX_SLICE]; `assumedSize` when none is given.
 */
function sliceOf(compile: Compile, field: GraphQLField<unknown, unknown>, node: FieldNode, listSize: ListSize) {
  const values = listSize.slicingArguments.map((name) => [name, argumentOf(compile, field, node, name)] as const);
  return (variables: Record<string, unknown>): number => {
    let size: number | null = null;
    for (const [name, value] of values) {
      const given = value(variables);
      if (typeof given !== 'number') continue;
      if (given < 0 || given > MAX_SLICE) noteOutOfRange(compile, { field: fieldNameOf(field, node), argument: name, size: given, slicing: true });
      size = Math.max(size ?? 0, given);
    }
    return Math.min(Math.max(size ?? listSize.assumedSize, 0), MAX_SLICE);
  };
}

/** Keeps the first argument out of range of an evaluation: the one the client reads first. */
function noteOutOfRange(compile: Compile, found: OutOfRange): void {
  compile.outOfRange.found ??= found;
}

/** A field as the document names it: by its alias when it has one, as the answer does. */
const fieldNameOf = (field: GraphQLField<unknown, unknown>, node: FieldNode): string => node.alias?.value ?? field.name;

/** One argument's value as execution will see it: worked out once when it holds no variable. */
function argumentOf(
  compile: Compile,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  name: string,
): (variables: Record<string, unknown>) => unknown {
  const argument = node.arguments?.find((candidate) => candidate.name.value === name);
  if (!argument || !readsVariables(compile, argument)) {
    const value = getArgumentValues(field, node, {})[name];
    return () => value;
  }
  return (variables) => getArgumentValues(field, node, variables)[name];
}

/** true or false when @skip/@include settle it once; otherwise a test of the variables. */
function inclusionOf(compile: Compile, node: SelectionNode): boolean | ((variables: Record<string, unknown>) => boolean) {
  if (!node.directives?.length) return true;
  const included = (variables: Record<string, unknown>) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  const conditions = node.directives.filter((directive) => directive.name.value === 'skip' || directive.name.value === 'include');
  return conditions.some((directive) => readsVariables(compile, directive)) ? included : included({});
}

/** Whether an AST node holds variables; each one is recorded as read by the price. */
function readsVariables(compile: Compile, node: ASTNode): boolean {
  let found = false;
  visit(node, {
    Variable(variable) {
      compile.reads.add(variable.name.value);
      found = true;
    },
  });
  return found;
}
