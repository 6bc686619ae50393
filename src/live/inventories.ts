// Subscription.inventory: a subscription's selection is the query of the same field with the same
// selection, run again on every poll of its (credential, inventory) group (hub.ts), with loaders of
// the poll's own, through the same partner client, coalescing and breaker as every query. Yoga's
// subscribe function is replaced for it (plugins/live-inventories.ts), since graphql-js would run the
// selection again for each subscriber on the subscription's own, per-request loaders.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import stableStringify from 'fast-json-stable-stringify';
import {
  execute,
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  OperationTypeNode,
  print,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type OperationDefinitionNode,
} from 'graphql';
import type { YogaInitialContext } from 'graphql-yoga';
import { buildContext, clientGoneSignal, type ContextDependencies, type TradegraphContext } from '../context.js';
import { credentialKeyOf } from '../credentials.js';
import { withoutHttpStatus, BadUserInputError, OperationLimitError, OverloadedError, UnauthenticatedError } from '../errors.js';
import { toInventoryRef } from '../inventory/model.js';
import { operationPrice } from '../cost/price.js';
import type { RequestCost } from '../cost/request-cost.js';
import { LiveHub, type LiveClock, type Tick } from './hub.js';
import type { LiveRelay } from './relay.js';

export interface LiveInventoriesOptions {
  dependencies: ContextDependencies;
  intervalMs: number;
  /** Open subscriptions on this replica; more are refused OVERLOADED. 0: subscriptions are refused. */
  maxSubscriptions: number;
  /** Open subscriptions per credential on this replica; more are refused OPERATION_LIMIT_EXCEEDED. */
  maxPerCredential: number;
  clock?: LiveClock;
  onPoll?: (subscribers: number, heard?: boolean) => void;
  /** Shares each group's polls across the fleet (Redis); without it this replica polls alone. */
  relay?: LiveRelay;
  /**
   * Spends a caller's budget (the rate limit's), answering its refusal: the selection's price as it
   * opens, and 1 for each poll it shares after. None without a rate limit.
   */
  spend?: (request: Request, points: number) => Promise<GraphQLError | null>;
}

export interface LiveInventories {
  readonly hub: LiveHub;
  /** Opens one subscription: its events, or the refusal as a single result. */
  open(args: ExecutionArgs): Promise<ExecutionResult | AsyncIterableIterator<ExecutionResult>>;
  close(): void;
}

/** The poll's context, shared by every selection its group runs on it. */
interface PollContext {
  context: TradegraphContext;
  cost: RequestCost;
}

export function createLiveInventories(options: LiveInventoriesOptions): LiveInventories {
  return new LiveService(options);
}

/** One open subscription's selection, its caller and its inventory, once its arguments are checked. */
interface Opening {
  query: DocumentNode;
  /** The query as text: part of its selection's key in the group. */
  printed: string;
  operationName: string | null | undefined;
  variableValues: Record<string, unknown>;
  responseKey: string;
  group: string;
  accessToken: string;
  credentialKey: string;
  context: TradegraphContext & YogaInitialContext;
}

class LiveService implements LiveInventories {
  readonly hub: LiveHub;
  readonly #options: LiveInventoriesOptions;
  readonly #contexts = new WeakMap<Tick, PollContext>();
  readonly #perCredential = new Map<string, number>();

  constructor(options: LiveInventoriesOptions) {
    this.#options = options;
    this.hub = new LiveHub({
      intervalMs: options.intervalMs,
      // A poll's loaders serve a newcomer only while its deadline leaves the newcomer time to read.
      reuseTickMs: Math.min(options.intervalMs, options.dependencies.operationTimeoutMs / 2),
      clock: options.clock,
      onPoll: options.onPoll,
      relay: options.relay,
    });
  }

  close(): void {
    this.hub.close();
  }

  async open(args: ExecutionArgs): Promise<ExecutionResult | AsyncIterableIterator<ExecutionResult>> {
    const operation = getOperationAST(args.document, args.operationName);
    const field = operation?.selectionSet.selections[0];
    if (!operation || field?.kind !== Kind.FIELD || field.name.value !== 'inventory') {
      return { errors: [withoutHttpStatus(new BadUserInputError("A subscription selects 'inventory' at its root, written as a field (not in a fragment)."))] };
    }
    const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], (args.variableValues ?? {}) as Record<string, unknown>);
    if (coerced.errors) return { errors: coerced.errors };
    try {
      const opening = this.#admit(args, operation, field, coerced.coerced);
      const { spend } = this.#options;
      if (spend) {
        // Opening costs what the same query would; each poll shared after costs 1 (docs/live-inventories.md).
        const price = operationPrice(args.schema, opening.query, opening.operationName, opening.variableValues)?.cost ?? 1;
        const refused = await spend(opening.context.request, Math.max(1, price));
        if (refused) return { errors: [withoutHttpStatus(refused)] };
      }
      return this.#subscribe(args, opening);
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [withoutHttpStatus(error)] };
      throw error;
    }
  }

  /** The subscription's arguments, caller and the caps checked: what it opens, or a typed refusal thrown. */
  #admit(args: ExecutionArgs, operation: OperationDefinitionNode, field: FieldNode, variableValues: Record<string, unknown>): Opening {
    const fieldArgs = getArgumentValues(args.schema.getSubscriptionType()!.getFields().inventory!, field, variableValues);
    const { platformId, appId } = toInventoryRef(fieldArgs.platformId as string, fieldArgs.appId as number);
    const context = args.contextValue as TradegraphContext & YogaInitialContext;
    const { accessToken } = context.credentials;
    const credentialKey = credentialKeyOf(context.request);
    if (accessToken === null || credentialKey === null) {
      throw new UnauthenticatedError("A live inventory needs the caller's partner access token: send it as 'Authorization: Bearer <token>'.");
    }
    const { maxSubscriptions, maxPerCredential, intervalMs } = this.#options;
    if (maxSubscriptions === 0 || this.hub.subscribers >= maxSubscriptions) {
      throw new OverloadedError(`This replica serves its most live subscriptions (${maxSubscriptions}); try again later or elsewhere.`, Math.ceil(intervalMs / 1000));
    }
    if ((this.#perCredential.get(credentialKey) ?? 0) >= maxPerCredential) {
      throw new OperationLimitError('liveSubscriptions', `One caller may hold ${maxPerCredential} live subscriptions at once; close one first.`, maxPerCredential);
    }
    return {
      ...queryOf(args.document, operation),
      operationName: args.operationName,
      variableValues,
      responseKey: field.alias?.value ?? field.name.value,
      group: `${credentialKey}\u0000${appId}\u0000${platformId}`,
      accessToken,
      credentialKey,
      context,
    };
  }

  /** Joins the subscription to its group's poll; counted against its caller until it ends. */
  #subscribe(args: ExecutionArgs, opening: Opening): AsyncIterableIterator<ExecutionResult> {
    const { query, printed, operationName, variableValues, responseKey, accessToken, credentialKey, context } = opening;
    const { spend } = this.#options;
    this.#perCredential.set(credentialKey, (this.#perCredential.get(credentialKey) ?? 0) + 1);
    const events = this.hub.subscribe(opening.group, {
      key: `${operationName ?? ''}\u0000${printed}\u0000${stableStringify(variableValues)}`,
      run: async (tick) => {
        const poll = this.#contextOf(tick, accessToken, credentialKey);
        const result = await execute({ schema: args.schema, document: query, operationName, variableValues, contextValue: poll.context });
        return asSubscriptionResult(result, responseKey);
      },
      charge: spend ? () => spend(context.request, 1) : undefined,
      onEnd: () => {
        const left = (this.#perCredential.get(credentialKey) ?? 1) - 1;
        if (left === 0) this.#perCredential.delete(credentialKey);
        else this.#perCredential.set(credentialKey, left);
      },
    });
    // Over SSE, a client that leaves is seen here: the stream Yoga reads from is not cancelled
    // when the connection closes, and would poll for no one until the next keep-alive fails.
    const { res } = context as { res?: ServerResponse };
    if (res) clientGoneSignal(res).addEventListener('abort', () => void events.return?.(), { once: true });
    return events;
  }

  /** The poll's context: one set of loaders per tick, shared by every selection of its group. */
  #contextOf(tick: Tick, accessToken: string, credentialKey: string): PollContext {
    let poll = this.#contexts.get(tick);
    if (!poll) {
      const cost: RequestCost = { requested: null, actual: 0 };
      const context = buildContext(this.#options.dependencies, {
        credentials: { accessToken },
        credentialKey: () => credentialKey,
        requestId: `live-${randomUUID()}`,
        signal: tick.signal,
        cost,
      });
      poll = { context, cost };
      this.#contexts.set(tick, poll);
    }
    return poll;
  }
}

/**
 * The subscription's document with its operation a query (Query.inventory takes the same arguments
 * and selection), and its text: made once per operation, so that every subscription of one
 * document (Yoga's parse cache and the trusted documents hand out the same node) shares the price
 * plan and compiled work keyed by the query's document.
 */
const queries = new WeakMap<OperationDefinitionNode, { query: DocumentNode; printed: string }>();

function queryOf(document: DocumentNode, operation: OperationDefinitionNode): { query: DocumentNode; printed: string } {
  let made = queries.get(operation);
  if (!made) {
    const query: DocumentNode = {
      ...document,
      definitions: document.definitions.map((definition) => (definition === operation ? { ...operation, operation: OperationTypeNode.QUERY } : definition)),
    };
    queries.set(operation, (made = { query, printed: print(query) }));
  }
  return made;
}

/**
 * Query.inventory is nullable and Subscription.inventory is not: a field error that nulls the
 * inventory nulls the whole event, as executing the subscription itself would.
 */
function asSubscriptionResult(result: ExecutionResult, responseKey: string): ExecutionResult {
  if (result.data && result.data[responseKey] === null) return { ...result, data: null };
  return result;
}

