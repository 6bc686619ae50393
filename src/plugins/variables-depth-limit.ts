// Bounds how deeply a request's variables nest before anything walks them. They are JSON the client
// wrote, and a value is walked before the operation's types have looked at it: the response cache
// serialises all of them into its key, recursively, so a value nested a few hundred thousand deep
// overflowed the stack there (HTTP 500). No input type of the schema nests more than a few levels.
// The refusal is thrown, not set as the result: Yoga runs every later onParams hook (the cache's
// key among them) after a result is set, and none after a throw, which it answers with the
// error's HTTP status.
import type { Plugin } from 'graphql-yoga';
import { OperationLimitError } from '../errors.js';
import { MAX_VARIABLES_DEPTH } from '../tunables.js';

export function useVariablesDepthLimit<TContext extends object>(maxDepth = MAX_VARIABLES_DEPTH): Plugin<TContext> {
  return {
    onParams({ params }) {
      const refusal = variablesDepthRefusal(params.variables, maxDepth);
      if (refusal) throw refusal;
    },
  };
}

/** The refusal of variables that nest deeper than `maxDepth`, or null; also applied to graphql-ws's subscribe messages (live/websocket.ts). */
export function variablesDepthRefusal(variables: unknown, maxDepth = MAX_VARIABLES_DEPTH): OperationLimitError | null {
  if (variables === undefined || variables === null || typeof variables !== 'object' || !nestsDeeperThan(variables, maxDepth)) return null;
  return new OperationLimitError(
    'variablesDepth',
    `The operation was refused before parsing: its variables nest arrays and objects more than ${maxDepth} deep, the most this service reads.`,
    maxDepth,
  );
}

/**
 * Whether any array or object inside the variables map sits more than `maxDepth` levels below it
 * (a variable's own array or object is level 1). The walk goes no deeper than `maxDepth`, so that
 * no depth sent can overflow the call stack here.
 */
function nestsDeeperThan(value: object, maxDepth: number, level = 0): boolean {
  const children: readonly unknown[] = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) {
    if (child !== null && typeof child === 'object' && (level >= maxDepth || nestsDeeperThan(child, maxDepth, level + 1))) return true;
  }
  return false;
}
