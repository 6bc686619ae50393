// Trusted documents (persisted operations): a request names a document of the manifest by its
// sha256 (bare hex or `sha256:<hex>`) instead of sending its text; where only trusted documents may run, nothing else does.
// Yoga's persisted-operations plugin speaks the protocol; this module prepares the documents.
import { defaultExtractPersistedOperationId, usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { GraphQLParams, Plugin, YogaServerInstance } from 'graphql-yoga';
import { ConfigError, documentHashOf, type TrustedDocumentsManifest } from '../config.js';
import { PersistedQueryNotFoundError, PersistedQueryOnlyError } from '../errors.js';
import { operationCost } from '../cost/price.js';

/** Parsed, validated documents by their bare hex sha256; filled once at start by prepareTrustedDocuments. */
export type TrustedDocuments = Map<string, DocumentNode>;

export interface TrustedDocumentsOptions {
  documents: TrustedDocuments;
  /** Refuse a request that sends a query's text (PERSISTED_QUERY_ONLY). */
  only: boolean;
}

/**
 * The three ways a client names a document: `documentId` in a POST body, `?documentId=` on a GET
 * (cacheable by browsers and CDNs), and Apollo's `extensions.persistedQuery.sha256Hash`.
 */
export function documentIdOf(params: GraphQLParams, request: Request): string | null {
  const fromBody = (params as { documentId?: unknown }).documentId;
  if (typeof fromBody === 'string') return fromBody;
  if (request.method === 'GET') {
    const fromUrl = new URL(request.url).searchParams.get('documentId');
    if (fromUrl) return fromUrl;
  }
  return defaultExtractPersistedOperationId(params, request, {});
}

/** The trusted document a request names by `id` (a hash, with or without its `sha256:` prefix), or null. */
export function trustedDocumentOf(documents: TrustedDocuments, id: string): DocumentNode | null {
  const hash = documentHashOf(id);
  return (hash !== null && documents.get(hash)) || null;
}

export function useTrustedDocuments<TContext extends object>({ documents, only }: TrustedDocumentsOptions): Plugin<TContext> {
  const persisted = usePersistedOperations<Record<string, unknown>>({
    // The prepared DocumentNode itself, so Yoga parses nothing and every cache keyed by the
    // document (cost plan, compiled query) holds one entry per trusted document.
    getPersistedOperation: (id) => trustedDocumentOf(documents, id),
    allowArbitraryOperations: !only,
    extractPersistedOperationId: documentIdOf,
    // Validated (with the limits) once, at start.
    skipDocumentValidation: true,
    customErrors: {
      notFound: ({ params, request }) => new PersistedQueryNotFoundError(documentIdOf(params, request) ?? ''),
      persistedQueryOnly: () => new PersistedQueryOnlyError(),
    },
  });
  return {
    ...(persisted as Plugin<TContext>),
    onParams(payload) {
      // Neither a query nor an id: Yoga's own check answers that request as it answers any other.
      if (!payload.params.query && documentIdOf(payload.params, payload.request) === null) return;
      return persisted.onParams!(payload as never);
    },
  };
}

/**
 * Parses and validates each document of the manifest through the service's own pipeline (so the
 * depth, alias, directive and token limits and the production rules apply as to any request), and
 * works out each operation's cost plan. A document any request would be refused stops the start.
 */
export function prepareTrustedDocuments(
  yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>,
  manifest: TrustedDocumentsManifest,
  into: TrustedDocuments,
): void {
  // As if each document came by POST: whether a GET may run it (no mutation) is asked per request.
  const { parse, validate, schema } = yoga.getEnveloped({ request: new Request('http://localhost/graphql', { method: 'POST' }) });
  const refuse = (hash: string, reason: string) =>
    ConfigError.of('TRUSTED_DOCUMENTS', `document '${hash}' ${reason}`);
  for (const [hash, text] of Object.entries(manifest)) {
    let document: DocumentNode;
    try {
      document = parse(text);
    } catch (error) {
      throw refuse(hash, `does not parse: ${(error as Error).message}`);
    }
    const errors = validate(schema as GraphQLSchema, document);
    if (errors.length > 0) throw refuse(hash, `is not valid: ${errors.map((error: Error) => error.message).join(' ')}`);
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      // Called for its plan, which is kept by document; the price itself depends on each request's variables.
      operationCost(schema as GraphQLSchema, document, definition.name?.value, {});
    }
    into.set(hash, document);
  }
}
