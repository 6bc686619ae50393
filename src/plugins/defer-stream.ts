// Incremental delivery: @defer and @stream with Yoga's plugin, answered over multipart/mixed or
// text/event-stream. A client that can take neither gets a coded refusal before anything runs,
// unless every such directive is switched off by its `if`.
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { BREAK, getOperationAST, Kind, visit, type DocumentNode, type ValueNode } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import { IncrementalDeliveryNotAcceptedError } from '../errors.js';

const INCREMENTAL_DIRECTIVES = new Set(['defer', 'stream']);

const usesIncremental = new WeakMap<DocumentNode, boolean>();

/**
 * Whether a document holds @defer or @stream anywhere (even `if: false`): such a document runs on
 * graphql-js's incremental executor, which is the one that honours them. Worked out once per document.
 */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = usesIncremental.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(directive) {
        if (!INCREMENTAL_DIRECTIVES.has(directive.name.value)) return undefined;
        found = true;
        return BREAK;
      },
    });
    usesIncremental.set(document, found);
  }
  return found;
}

/**
 * Whether the operation, with these variables, asks for several payloads: some @defer or @stream
 * that its `if` does not switch off (a literal `false`, or a variable given or defaulting to
 * `false`). Anything else counts as on, as the executor would take it.
 */
export function requestsIncrementalDelivery(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): boolean {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  const defaults = new Map(definitions.map((definition) => [definition.variable.name.value, definition.defaultValue]));
  const switchedOff = (condition: ValueNode): boolean => {
    if (condition.kind === Kind.BOOLEAN) return !condition.value;
    if (condition.kind !== Kind.VARIABLE) return false;
    const given = variables && Object.hasOwn(variables, condition.name.value) ? variables[condition.name.value] : undefined;
    if (given !== undefined) return given === false;
    const fallback = defaults.get(condition.name.value);
    return fallback?.kind === Kind.BOOLEAN && !fallback.value;
  };
  let requested = false;
  visit(document, {
    Directive(directive) {
      if (!INCREMENTAL_DIRECTIVES.has(directive.name.value)) return undefined;
      const condition = directive.arguments?.find((argument) => argument.name.value === 'if');
      if (condition && switchedOff(condition.value)) return undefined;
      requested = true;
      return BREAK;
    },
  });
  return requested;
}

/** Media types under which Yoga streams payloads (its result processors), with their wildcards. */
const STREAMING_MEDIA_TYPES = new Set(['multipart/mixed', 'text/event-stream', 'multipart/*', 'text/*', '*/*']);

/** Whether the Accept header lets Yoga answer in several payloads; no header accepts anything. */
export function acceptsIncrementalDelivery(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  // Read as Yoga's result processors read it: white space dropped, and an entry whose charset is not
  // utf-8 matches nothing (Yoga would answer such a request 406 with no body, after running it).
  return accept
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .some((entry) => {
      const [type = '', ...parameters] = entry.split(';');
      const charset = parameters.find((parameter) => parameter.includes('charset='));
      if (charset !== undefined && charset !== 'charset=utf-8') return false;
      return STREAMING_MEDIA_TYPES.has(type) && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
    });
}

/** Yoga's plugin (the directives and their validation rules), and the refusal of a client that cannot take them. */
export function useIncrementalDelivery<TContext extends YogaInitialContext>(): Plugin<TContext>[] {
  return [
    useDeferStream() as Plugin<TContext>,
    {
      onExecute({ args, setResultAndStopExecution }) {
        if (!usesIncrementalDelivery(args.document)) return;
        if (acceptsIncrementalDelivery(args.contextValue.request.headers.get('accept'))) return;
        // Every @defer and @stream switched off by its `if`: one payload, which JSON can carry.
        if (!requestsIncrementalDelivery(args.document, args.operationName, args.variableValues)) return;
        setResultAndStopExecution({ errors: [new IncrementalDeliveryNotAcceptedError()] });
      },
    },
  ];
}
