// GraphQL over WebSocket (graphql-ws's protocol) at the GraphQL path, wired to Yoga as Yoga's docs
// show: each subscribe message runs through Yoga's envelop pipeline (parse with its token limit,
// validation with the operation limits, the context, the live subscribe function). Yoga's HTTP
// phases do not run on a socket, so the trusted-documents rule is applied here as the plugin
// applies it over HTTP: a named document runs from the manifest, and text is refused where only
// trusted documents may run; so is the variables' depth limit.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import type { GraphQLParams, YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { PersistedQueryNotFoundError, PersistedQueryOnlyError, withoutHttpStatus } from '../errors.js';
import { documentIdOf, trustedDocumentOf, type TrustedDocuments } from '../plugins/trusted-documents.js';
import { variablesDepthRefusal } from '../plugins/variables-depth-limit.js';

export interface WebSocketOptions {
  server: Server;
  path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  yoga: YogaServerInstance<any, any>;
  trustedDocuments: TrustedDocuments;
  trustedDocumentsOnly: boolean;
  /** The largest message a client may send (a subscribe message carries the query text). */
  maxPayloadBytes: number;
}

interface Enveloped {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
}

type EnvelopedParse = Pick<ReturnType<WebSocketOptions['yoga']['getEnveloped']>, 'parse' | 'validate' | 'schema'>;

/** The document a subscribe message names: from the manifest by its id, or parsed and validated where text may run. */
function documentOf(params: GraphQLParams, request: Request, enveloped: EnvelopedParse, options: WebSocketOptions): DocumentNode | readonly GraphQLError[] {
  const id = documentIdOf(params, request);
  if (id !== null) {
    return trustedDocumentOf(options.trustedDocuments, id) ?? [new PersistedQueryNotFoundError(id)];
  }
  if (options.trustedDocumentsOnly || typeof params.query !== 'string') return [new PersistedQueryOnlyError()];
  const document = enveloped.parse(params.query);
  const errors = enveloped.validate(enveloped.schema, document);
  return errors.length > 0 ? errors : document;
}

export interface GraphQLWebSocket {
  /** Closes every socket (1001, going away), once their subscriptions have completed. */
  close(): Promise<void>;
}

export function serveGraphQLOverWebSocket(options: WebSocketOptions): GraphQLWebSocket {
  const { yoga, path } = options;
  // noServer, as ws's docs show for a server shared with other traffic: attached to the server, ws
  // would take its 'error' events too, and graphql-ws print a listen failure (a port taken) as an
  // internal error of its own. ws still answers an upgrade to another path 400 (its `path` check).
  const sockets = new WebSocketServer({ noServer: true, path, maxPayload: options.maxPayloadBytes });
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  options.server.on('upgrade', upgrade);
  const served = useServer(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args) as never,
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args) as never,
      onSubscribe: async (ctx, _id, payload) => {
        // A browser cannot set headers on a WebSocket: the token comes in the connection's
        // parameters, else in the upgrade request's own Authorization header.
        const given = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization ?? ctx.extra.request.headers.authorization;
        const request = new yoga.fetchAPI.Request(`http://localhost${path}`, {
          method: 'POST',
          headers: typeof given === 'string' ? { authorization: given } : {},
        });
        const params = payload as GraphQLParams;
        // As over HTTP (plugins/variables-depth-limit.ts), before anything walks them.
        const tooDeep = variablesDepthRefusal(params.variables);
        if (tooDeep) return [withoutHttpStatus(tooDeep)];
        const enveloped = yoga.getEnveloped({ request, params });
        try {
          const document = documentOf(params, request, enveloped, options);
          if (Array.isArray(document)) return document.map(withoutHttpStatus);
          return {
            schema: enveloped.schema,
            document: document as DocumentNode,
            operationName: params.operationName,
            variableValues: params.variables,
            contextValue: await enveloped.contextFactory(),
            rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
          };
        } catch (error) {
          if (error instanceof GraphQLError) return [withoutHttpStatus(error)];
          throw error;
        }
      },
    },
    sockets,
  );
  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= (async () => {
        options.server.off('upgrade', upgrade);
        await served.dispose();
        await new Promise<void>((resolve) => sockets.close(() => resolve()));
      })()),
  };
}
