// Subscription.inventory's subscribe function (src/live/inventories.ts): graphql-js would run the
// selection again for each subscriber on the subscription's own, per-request loaders, where the live
// service runs it once per poll for every subscriber of its group. Structurally typed, so that
// plugins/ does not import live/ (which imports plugins/trusted-documents.ts).
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** What opens a subscription: its events, or its refusal as a single result. */
export interface SubscriptionOpener {
  open(args: ExecutionArgs): Promise<ExecutionResult | AsyncIterableIterator<ExecutionResult>>;
}

/** Yoga's subscribe function, for the operations of Subscription.inventory (the schema's only subscription). */
export function useLiveInventories<TContext extends object>(live: SubscriptionOpener): Plugin<TContext> {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn((args) => live.open(args));
    },
  };
}
