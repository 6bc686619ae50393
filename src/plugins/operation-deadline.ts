// Releases each operation's deadline timer (context.ts) as soon as its execution ends, so that a
// busy service does not hold one live timer per finished request for OPERATION_TIMEOUT_MS.
import type { Plugin } from 'graphql-yoga';
import type { TradegraphContext } from '../context.js';

export function useOperationDeadline(): Plugin<TradegraphContext> {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone() {
          args.contextValue.deadline?.dispose();
        },
      };
    },
  };
}
