// Prices an operation by the partner work it would cause and refuses it before execution when the
// price is over the limit. Runs with the request's own variables, so `items(first: $n)` costs n.
import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
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

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/**
 * The cost of one operation of a valid document under the given (raw) variables; null when the
 * variables do not coerce (execution refuses those before any resolver runs).
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Record<string, unknown> | null | undefined,
): number | null {
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
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {});
  if (coerced.errors) return null;
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  return selectionSetCost({ schema, fragments, variables: coerced.coerced }, operation.selectionSet, rootType, 1);
}

/**
 * Sums the fields' prices. Fragments on every possible type are all counted (an upper bound);
 * `@skip`/`@include` are honoured. `pageSize` is the `first` of the connection being walked: the
 * per-item fields below its `edges` and `nodes` are paid once per item.
 */
function selectionSetCost(
  walk: Walk,
  selectionSet: SelectionSetNode,
  parentType: GraphQLCompositeType,
  pageSize: number,
): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (!isIncluded(walk, selection)) continue;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parentType;
      if (type && isCompositeType(type)) cost += selectionSetCost(walk, selection.selectionSet, type, pageSize);
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      const type = fragment && walk.schema.getType(fragment.typeCondition.name.value);
      if (fragment && type && isCompositeType(type)) cost += selectionSetCost(walk, fragment.selectionSet, type, pageSize);
      continue;
    }
    if (!isObjectType(parentType) && !isInterfaceType(parentType)) continue;
    const field = parentType.getFields()[selection.name.value];
    if (!field) continue;
    const coordinate = `${parentType.name}.${field.name}`;
    const args = getArgumentValues(field, selection, walk.variables);
    const childType = getNamedType(field.type);
    const children = (size: number) =>
      selection.selectionSet && isCompositeType(childType)
        ? selectionSetCost(walk, selection.selectionSet, childType, size)
        : 0;
    switch (coordinate) {
      case 'Inventory.totalCount':
        cost += OPERATION_COST.pageCall;
        break;
      case 'Inventory.items': {
        const first = pageSizeOf(args.first);
        cost += OPERATION_COST.pageCall + first * OPERATION_COST.item + children(first);
        break;
      }
      case 'InventoryItemConnection.edges':
      case 'InventoryItemConnection.nodes':
        cost += pageSize * children(1);
        break;
      case 'InventoryItem.listingFee':
        cost += OPERATION_COST.item;
        break;
      case 'Query.node':
        cost += OPERATION_COST.pageCall + OPERATION_COST.item + children(1);
        break;
      case 'Mutation.calculateListingFee':
        cost += OPERATION_COST.pageCall + listingFeeItemsOf(args.input) * OPERATION_COST.item;
        break;
      default:
        cost += children(pageSize);
    }
  }
  return cost;
}

function isIncluded(walk: Walk, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, walk.variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, walk.variables)?.if !== false;
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
