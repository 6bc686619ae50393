// Prices an operation by the partner work it would cause and refuses it before execution when the
// price is over the limit. Runs with the request's own variables, so `items(first: $n)` costs n.
// The walk of the document happens once per document; a request only evaluates its price.
import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  isCompositeType,
  isInputType,
  isLeafType,
  typeFromAST,
  valueFromAST,
  isObjectType,
  isInterfaceType,
  Kind,
  visit,
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type SelectionNode,
  type VariableDefinitionNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { OperationLimitError } from '../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../inventory/paging.js';
import { MAX_LISTING_FEE_ITEMS } from '../listing-fee/input.js';

/**
 * The price list, in units of partner work: one unit per partner call and one per item the partner
 * reads or prices. A page of 100 items with a fee on each costs about 200.
 */
export const OPERATION_COST = {
  /** `Inventory.totalCount`, `Query.node`: one inventory call (often shared, priced anyway). */
  pageCall: 1,
  /** Each item an `items(first:)` page asks for, and each `listingFee` entry. */
  item: 1,
} as const;

/** Default most units one operation may cost: a few full pages with fees, not dozens. */
export const DEFAULT_MAX_OPERATION_COST = 1000;

/**
 * An operation's price as a function of its variables: `pageSize` is the `first` of the connection
 * being walked, so that per-item fields below its `edges` and `nodes` are paid once per item.
 */
type Price = (variables: Record<string, unknown>, pageSize: number) => number;

/**
 * What pricing one operation needs, worked out once per parsed document and operation name (Yoga's
 * parse cache hands back the same DocumentNode for the same text): the price function and the
 * variables it reads, so that a request coerces at most those, and only the cheap ones.
 */
interface PricePlan {
  price: Price;
  /** Read variables of scalar (leaf) types: coerced per request, and cheap to coerce. */
  scalarDefinitions: VariableDefinitionNode[];
  /**
   * Read variables of input object types (a mutation's `input`), by name with their default. The
   * price reads only their shape (how many items); coercing them, which is most of what a
   * 20-item mutation's price cost, is left to execution, which refuses a bad one anyway.
   */
  inputVariables: Array<readonly [name: string, fallback: unknown]>;
  /** Costs by the JSON of the scalar variables, when the price reads no input object. */
  costs: Map<string, number | null>;
}

/** Distinct variable values remembered per plan; the cache starts over when it is full. */
const MAX_COSTS_PER_PLAN = 256;

/** Plans by schema, parsed document and operation name. */
const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, PricePlan | null>>>();

/**
 * The cost of one operation of a valid document under the given (raw) variables; null when the
 * scalar variables it reads do not coerce (execution refuses those before any resolver runs).
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Record<string, unknown> | null | undefined,
): number | null {
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
  const raw = rawVariables ?? {};
  if (plan.inputVariables.length > 0) {
    const variables = scalarVariables(schema, plan, raw);
    if (!variables) return null;
    for (const [name, fallback] of plan.inputVariables) variables[name] = raw[name] === undefined ? fallback : raw[name];
    try {
      return plan.price(variables, 1);
    } catch (error) {
      // An argument built from uncoerced input (`input: { items: $items }` with items null) does
      // not fit its type: execution refuses it with BAD_USER_INPUT before any resolver runs.
      if (error instanceof GraphQLError) return null;
      throw error;
    }
  }
  if (plan.scalarDefinitions.length === 0) return plan.price({}, 1);
  // A missing variable ([]: its default applies) and a null one ([null]) are different keys.
  const key = JSON.stringify(
    plan.scalarDefinitions.map((definition) => {
      const value = raw[definition.variable.name.value];
      return value === undefined ? [] : [value];
    }),
  );
  let cost = plan.costs.get(key);
  if (cost !== undefined) return cost;
  const variables = scalarVariables(schema, plan, raw);
  cost = variables ? plan.price(variables, 1) : null;
  if (plan.costs.size >= MAX_COSTS_PER_PLAN) plan.costs.clear();
  plan.costs.set(key, cost);
  return cost;
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
  const compile: Compile = { schema, fragments, reads: new Set() };
  const price = selectionSetPrice(compile, operation.selectionSet, rootType) ?? FREE;
  const plan: PricePlan = { price, scalarDefinitions: [], inputVariables: [], costs: new Map() };
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

/**
 * The price of a selection set: the sum of its fields' prices. Fragments on every possible type
 * are all counted (an upper bound); `@skip`/`@include` are honoured. Null when nothing below can
 * cost anything, so that free subtrees cost nothing per request either.
 */
function selectionSetPrice(compile: Compile, selectionSet: SelectionSetNode, parentType: GraphQLCompositeType): Price | null {
  const parts: Price[] = [];
  for (const selection of selectionSet.selections) {
    const part = selectionPrice(compile, selection, parentType);
    if (!part) continue;
    const included = inclusionOf(compile, selection);
    if (included === false) continue;
    parts.push(included === true ? part : (variables, pageSize) => (included(variables) ? part(variables, pageSize) : 0));
  }
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0]!;
  return (variables, pageSize) => {
    let sum = 0;
    for (const part of parts) sum += part(variables, pageSize);
    return sum;
  };
}

function selectionPrice(compile: Compile, selection: SelectionNode, parentType: GraphQLCompositeType): Price | null {
  if (selection.kind === Kind.INLINE_FRAGMENT) {
    const type = selection.typeCondition ? compile.schema.getType(selection.typeCondition.name.value) : parentType;
    return type && isCompositeType(type) ? selectionSetPrice(compile, selection.selectionSet, type) : null;
  }
  if (selection.kind === Kind.FRAGMENT_SPREAD) {
    const fragment = compile.fragments.get(selection.name.value);
    const type = fragment && compile.schema.getType(fragment.typeCondition.name.value);
    return fragment && type && isCompositeType(type) ? selectionSetPrice(compile, fragment.selectionSet, type) : null;
  }
  if (!isObjectType(parentType) && !isInterfaceType(parentType)) return null;
  const field = parentType.getFields()[selection.name.value];
  if (!field) return null;
  const childType = getNamedType(field.type);
  const children =
    selection.selectionSet && isCompositeType(childType) ? selectionSetPrice(compile, selection.selectionSet, childType) : null;
  switch (`${parentType.name}.${field.name}`) {
    case 'Inventory.totalCount':
      return () => OPERATION_COST.pageCall;
    case 'Inventory.items': {
      const first = argumentOf(compile, field, selection, 'first');
      return (variables) => {
        const size = pageSizeOf(first(variables));
        return OPERATION_COST.pageCall + size * OPERATION_COST.item + (children ? children(variables, size) : 0);
      };
    }
    case 'InventoryItemConnection.edges':
    case 'InventoryItemConnection.nodes':
      return children && ((variables, pageSize) => pageSize * children(variables, 1));
    case 'InventoryItem.listingFee':
      return () => OPERATION_COST.item;
    case 'Query.node':
      return (variables) => OPERATION_COST.pageCall + OPERATION_COST.item + (children ? children(variables, 1) : 0);
    case 'Query._entities': {
      // A federation gateway's entity fetch: each representation is priced as node(id:) is.
      const representations = argumentOf(compile, field, selection, 'representations');
      return (variables) => {
        const count = (representations(variables) as unknown[] | undefined)?.length ?? 0;
        return count * (OPERATION_COST.pageCall + OPERATION_COST.item + (children ? children(variables, 1) : 0));
      };
    }
    case 'Mutation.calculateListingFee': {
      const input = argumentOf(compile, field, selection, 'input');
      return (variables) => OPERATION_COST.pageCall + listingFeeItemsOf(input(variables)) * OPERATION_COST.item;
    }
    default:
      return children;
  }
}

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

/** `first` as the resolver will read it; an out-of-range value is refused there, so price its bound. */
function pageSizeOf(first: unknown): number {
  if (first === undefined || first === null) return DEFAULT_PAGE_SIZE;
  return typeof first === 'number' ? Math.min(Math.max(first, 0), MAX_PAGE_SIZE) : MAX_PAGE_SIZE;
}

function listingFeeItemsOf(input: unknown): number {
  const items = (input as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? Math.min(items.length, MAX_LISTING_FEE_ITEMS) : 1;
}

/**
 * Refuses an operation over `maxCost` after validation and before any resolver runs. It hooks
 * execution rather than validation because Yoga caches validation per document, and the cost
 * depends on the variables.
 */
export function useOperationCostLimit({ maxCost }: { maxCost: number }): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = operationCost(args.schema, args.document, args.operationName, args.variableValues);
      if (cost !== null && cost > maxCost) {
        setResultAndStopExecution({
          errors: [
            new OperationLimitError(
              'cost',
              `The operation would cost ${cost} units of partner work; at most ${maxCost} are allowed. ` +
                'Ask for fewer items (first), fewer inventories or fewer listing fees per operation.',
              maxCost,
            ),
          ],
        });
      }
    },
  };
}
