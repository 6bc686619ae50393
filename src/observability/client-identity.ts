// Which front end sent a request, from the headers client libraries and gateways set: Hive's
// `graphql-client-name`/`graphql-client-version`, or Apollo's `apollographql-client-name`/`-version`.
// The values are the client's to choose, so they become log fields, span attributes and metric
// labels only once bounded: a fixed alphabet and length, a bounded number of distinct names, and
// never anything that could be a credential.
import { callerOf } from '../credentials.js';
import { scopeOf, type ClientIdentity } from '../request-scope.js';
import { CLIENT_NAME_MAX_LENGTH, CLIENT_VERSION_MAX_LENGTH, CLIENT_VERSIONS_PER_NAME, MIN_SECRET_OVERLAP } from '../tunables.js';

export type { ClientIdentity };

export interface ClientIdentityOptions {
  /** Distinct client names that are told apart; later ones are counted as `other`. */
  maxNames: number;
  /** Credentials of the service itself (the merchant app-key) that no client value may carry. */
  secrets?: readonly string[];
}

/** The name or version when the request has none. */
const UNKNOWN = 'unknown';
/** A name past `maxNames`, or a version past CLIENT_VERSIONS_PER_NAME of its name. */
const OTHER = 'other';
/** A value that holds (or is part of) a credential the request or the service carries. */
const REDACTED = 'redacted';


/** What a name or version may be made of, after trimming; anything else becomes `_`. */
const UNSAFE = /[^A-Za-z0-9._:@/+-]/g;
/** Values whose form is a credential's, whoever's: a bearer header, a JWT. */
const CREDENTIAL_FORM = /^(bearer|basic)\s|^eyJ[\w-]+\.[\w-]+/i;
/**
 * A run that looks like a random token, whoever's: 24 or more characters of the base64 alphabets
 * with no separator a name would use (`.`, `:`, `@`), mixing upper case, lower case and digits. A
 * client's name rarely mixes all three over so long a run; a generated secret nearly always does.
 */
const TOKEN_RUN = /[A-Za-z0-9+/=_-]{24,}/g;

export interface ClientIdentities {
  /** The request's client, read once per request. */
  of(request: Request): ClientIdentity;
}

export function createClientIdentities({ maxNames, secrets = [] }: ClientIdentityOptions): ClientIdentities {
  const versionsByName = new Map<string, Set<string>>();

  const bounded = (name: string, version: string): ClientIdentity => {
    if (name === REDACTED || version === REDACTED) return { name: REDACTED, version: REDACTED };
    let versions = versionsByName.get(name);
    if (!versions) {
      // Requests without a name share `unknown`, which takes no place among the names.
      if (name !== UNKNOWN && versionsByName.size - (versionsByName.has(UNKNOWN) ? 1 : 0) >= maxNames) {
        return { name: OTHER, version: OTHER };
      }
      versionsByName.set(name, (versions = new Set()));
    }
    if (!versions.has(version)) {
      if (versions.size >= CLIENT_VERSIONS_PER_NAME) return { name, version: OTHER };
      versions.add(version);
    }
    return { name, version };
  };

  return {
    of(request) {
      const scope = scopeOf(request);
      if (scope.client) return scope.client;
      const { headers } = request;
      const givenName = headers.get('graphql-client-name') ?? headers.get('apollographql-client-name');
      const givenVersion = headers.get('graphql-client-version') ?? headers.get('apollographql-client-version');
      // The credentials a value is searched for, gathered only when there is a value to search.
      const credentials =
        givenName === null && givenVersion === null
          ? []
          : [callerOf(request).secret, ...secrets].filter((secret): secret is string => !!secret);
      const name = clean(givenName, CLIENT_NAME_MAX_LENGTH, credentials);
      const version = clean(givenVersion, CLIENT_VERSION_MAX_LENGTH, credentials);
      // Either value a credential: both go, since the other may say whose it is.
      return (scope.client = bounded(name, version));
    },
  };
}

/** A header's value as a label value: trimmed, of a safe alphabet, capped; `redacted` when it could be a credential. */
function clean(value: string | null, maxLength: number, credentials: readonly string[]): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return UNKNOWN;
  if (CREDENTIAL_FORM.test(trimmed)) return REDACTED;
  // Only what is kept is searched: what the cap cuts off is written nowhere, and the search stays short.
  const kept = trimmed.slice(0, maxLength);
  if (credentials.some((credential) => overlaps(kept, credential)) || holdsTokenRun(kept)) return REDACTED;
  return kept.replace(UNSAFE, '_');
}

/**
 * Whether a value holds a credential, or MIN_SECRET_OVERLAP characters in a row of one: a prefix
 * (`web:`) before part of a token must not let that part through.
 */
function overlaps(value: string, credential: string): boolean {
  if (value.includes(credential)) return true;
  for (let start = 0; start + MIN_SECRET_OVERLAP <= value.length; start++) {
    if (credential.includes(value.slice(start, start + MIN_SECRET_OVERLAP))) return true;
  }
  return false;
}

function holdsTokenRun(value: string): boolean {
  for (const [run] of value.matchAll(TOKEN_RUN)) {
    if (/[a-z]/.test(run) && /[A-Z]/.test(run) && /[0-9]/.test(run)) return true;
  }
  return false;
}
