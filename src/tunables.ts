// The service's fixed tunables: numbers an operator does not set (those are in config.ts), each
// with why it has its value. The default page size is not here: it is the SDL's default of
// `Inventory.items(first:)`, stated once in schema/inventory.graphql.

/** How long in-flight requests may take to finish after SIGTERM (or SIGINT, SIGHUP) before connections are cut: well inside an orchestrator's usual 30 s grace. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** How long the spans still buffered at shutdown may take to reach the collector: a stalled collector must not hold the exit. */
export const TRACING_FLUSH_MS = 3_000;

/** How long one readiness probe may take (and never longer than a partner call may): a probe's own timeout is usually a few seconds. */
export const READINESS_TIMEOUT_MS = 2_000;

/** How long a readiness answer is reused, so that frequent probes from many sources cost the partner one call. */
export const READINESS_CACHE_MS = 2_000;

/** Share (0 to 1) of a window's partner calls that must be outages for the circuit to open: a majority failing is an outage, a few are noise. */
export const BREAKER_FAILURE_RATIO = 0.5;

/** The breaker's rolling window: long enough to hold UPSTREAM_BREAKER_MIN_CALLS calls, short enough to notice an outage within seconds. */
export const BREAKER_WINDOW_MS = 10_000;

/** How long connecting to Redis may take: Redis is on the same network, and a slow connect falls back to in-process state. */
export const REDIS_CONNECT_TIMEOUT_MS = 1_000;

/** How often the Redis connection is asked for a PING, to find a hung Redis and to see one come back. */
export const REDIS_HEARTBEAT_MS = 1_000;

/** Each reconnection attempt to Redis waits this much longer than the one before, up to the maximum below. */
export const REDIS_RECONNECT_STEP_MS = 100;

/** Reconnection attempts back off to this, and go on for as long as the service runs. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * The most items one page may ask for (`first`): a page is at most a few partner calls of the
 * partner's own page size. The SDL's description of `first` states it to clients
 * (test/unit/page-size.test.ts keeps the two in step).
 */
export const MAX_PAGE_SIZE = 100;

/**
 * Unreachable failures in a row (refused, reset, connect timeout, TLS: failures no caller can cause)
 * that open the partner's circuit whatever the window held before: Envoy's outlier detection ejects a
 * host after 5 consecutive gateway failures (`consecutive_gateway_failure`), and a busy window's
 * successes must not keep answering an outage slowly.
 */
export const BREAKER_CONSECUTIVE_UNREACHABLE = 5;

/**
 * Brotli's quality by the size of what it compresses (bytes up to, quality). Node's default, 11,
 * is for static files; 4 compresses a dynamic answer about as fast as gzip does, and smaller; a
 * larger body gets 1, whose CPU per byte stays flat where 4's grows, so that a body of a megabyte
 * holds a thread of the pool for milliseconds rather than tens of them.
 */
export const BROTLI_QUALITY_BY_SIZE: readonly (readonly [maxBytes: number, quality: number])[] = [
  [256 * 1024, 4],
  [Number.POSITIVE_INFINITY, 1],
];

/** gzip's level by size, for the same reason: zlib's default 6 up to 256 KiB, 1 above. */
export const GZIP_LEVEL_BY_SIZE: readonly (readonly [maxBytes: number, level: number])[] = [
  [256 * 1024, 6],
  [Number.POSITIVE_INFINITY, 1],
];

/**
 * Compressions under way at once, per process; past it an answer goes out uncompressed. Half of
 * libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), which DNS lookups, file
 * reads and zlib share: compression never takes the whole pool, nor more than two cores.
 */
export const COMPRESSIONS_AT_ONCE = 2;

/**
 * Bytes of answers the service holds at once (each answer's body, from the moment it is made to the
 * moment its response closes): past it, an answer is dropped and its request answered 503
 * OVERLOADED with Retry-After, as the budget of request bodies refuses. One answer alone always
 * goes out, whatever its size. 128 MiB holds a hundred of the largest cacheable answers (about a
 * megabyte each in br, less than a tenth of that), within the heap `start:prod` gives beside the
 * response cache's budget.
 */
export const ANSWER_BYTES_IN_FLIGHT = 128 * 1024 * 1024;

/**
 * Bytes of cached answers that may wait for their encoding to be made (the first hits of an
 * answer in br or gzip): a waiting answer holds its whole body. Past it a hit goes out as it is,
 * and the encoding, made once, serves the hits after. 32 MiB: a few dozen of the largest answers.
 */
export const COMPRESSION_WAITING_BYTES = 32 * 1024 * 1024;

/**
 * The share of the unproven callers' fee budget one client (its address, its token) may spend is
 * the budget divided by this: a tenth, so that one client that keeps asking leaves nine tenths of
 * the fees to every other new user.
 */
export const UNPROVEN_FEE_SHARE_DIVISOR = 10;

/**
 * Most items one `calculateListingFee` may ask for: the largest list the schema takes, and a bound
 * on what one mutation sends the partner with the merchant's key (cost/policy.ts's MAX_SLICE).
 */
export const MAX_LISTING_FEE_ITEMS = 100;

/**
 * Most distinct entries of one identity (one asset, one token, or none at all) a mutation may
 * hold. The partner's answer cannot tell such entries apart, so each goes upstream in a call of its
 * own: without a bound, 100 items without a token made 100 partner calls with the merchant's key.
 */
export const MAX_LISTING_FEE_ENTRIES_PER_IDENTITY = 10;

/** Longest token or styleToken accepted; the partner's tokens are far shorter. */
export const MAX_TOKEN_LENGTH = 1024;

/** Longest client name (graphql-client-name) kept as a label; longer ones are cut: a label value stays short. */
export const CLIENT_NAME_MAX_LENGTH = 64;

/** Longest client version kept as a label, cut as the name is. */
export const CLIENT_VERSION_MAX_LENGTH = 32;

/** Versions of one client name told apart: a client with a version per build must not grow the series count without end. */
export const CLIENT_VERSIONS_PER_NAME = 20;

/** Characters in a row of a credential that make a client value `redacted`: shorter runs are too common to be a token's part by chance (a version such as `1.2`). */
export const MIN_SECRET_OVERLAP = 8;

/** Smaller answers go out uncompressed: a packet or two either way, and compressing costs a call. */
export const COMPRESSION_MIN_BYTES = 1024;

/**
 * The encoded forms of cached answers may take this share of RESPONSE_CACHE_MAX_BYTES beside it: an
 * answer's br or gzip is about a tenth of its JSON, which the store weighs at 3.5 times, so both
 * encodings of every answer the store holds take about a sixteenth; a quarter leaves room for
 * answers of Redis, which the in-process store does not hold.
 */
export const KEPT_ENCODINGS_SHARE = 0.25;

/** What a kept encoding of a cached answer weighs beside its bytes: its key, the record, lru-cache's slots. */
export const KEPT_ENCODING_OVERHEAD_BYTES = 512;

/** The most units one operation may cost: a few full pages with fees, not dozens (cost/price.ts prices them). */
export const DEFAULT_MAX_OPERATION_COST = 1000;

/**
 * The limits on every operation (plugins/operation-limits.ts). The schema has no cycles, so no
 * honest operation is deeper than 6 fields; depth guards the recursive introspection types.
 * Aliases, directives and tokens bound the work of parsing and validating; cost bounds the partner
 * work.
 */
export const OPERATION_LIMITS = {
  depth: 10,
  aliases: 30,
  directives: 50,
  tokens: 2000,
  cost: DEFAULT_MAX_OPERATION_COST,
} as const;

/** Deepest nesting of arrays and objects a variable's value may have: no input type of the schema nests more than a few levels. */
export const MAX_VARIABLES_DEPTH = 32;

/**
 * How long a refused body is still read, and discarded, after its 413 is written, as nginx's
 * lingering close does: closing with the client's bytes unread resets the connection, and a
 * client still sending then sees the reset instead of the answer.
 */
export const LINGER_MS = 2_000;

/**
 * What counts as progress of an answer's write (http/write-timeout.ts): this much more of it taken
 * by the connection, or all that was queued. A client's kernel that opens its window a few bytes at
 * a time (or a client that reads so) does not keep an answer alive. Also the size of the pieces a
 * larger write is sent in, so that each piece taken is seen: a write is seen done only once the
 * connection has taken all of it.
 */
export const WRITE_PROGRESS_BYTES = 64 * 1024;

/** The longest between two checks of a queued answer's progress, or of Node's header and request timeouts: 1 s. */
export const HTTP_CHECK_INTERVAL_MAX_MS = 1_000;

/**
 * What one inventory page's answer may weigh (partner/inventory.ts): the envelope, plus a generous
 * bound per item (the document's item with every field set is under 4 KiB). A larger answer is
 * refused before it is held, so that concurrent pages cannot take the process's memory with them.
 */
export const PAGE_ENVELOPE_BYTES = 64 * 1024;
export const PAGE_ITEM_BYTES = 16 * 1024;

/** What a fee answer's envelope and each of its result items may weigh (partner/listing-fee.ts), as for a page: the cap follows from the batch size. */
export const FEE_ENVELOPE_BYTES = 16 * 1024;
export const FEE_ITEM_BYTES = 2 * 1024;

/** How long an idle connection to the partner is kept open for the next call: past the partner's idle timeout it would be closed under a call. */
export const UPSTREAM_KEEP_ALIVE_MS = 30_000;

/** UPSTREAM_CONNECTIONS_PER_DOMAIN when unset: this share of the connections, at least one, so that one inventory or caller never holds them all. */
export const UPSTREAM_DOMAIN_SHARE = 0.25;

/** A retried partner call's first wait, doubled for each retry up to the maximum (cockatiel's ExponentialBackoff): a blip is tried again at once, well inside UPSTREAM_TIMEOUT_MS. */
export const UPSTREAM_RETRY_FIRST_DELAY_MS = 50;
export const UPSTREAM_RETRY_MAX_DELAY_MS = 400;

/**
 * Credentials the partner accepted, remembered per replica (partner/accepted-credentials.ts): the
 * most digests kept, the ones accepted longest ago forgotten first (a hundred thousand callers
 * take a few MiB), and how long one acceptance counts as evidence, since the document does not say
 * how long tokens live.
 */
export const ACCEPTED_CREDENTIALS_MAX = 100_000;
export const ACCEPTED_CREDENTIAL_TTL_MS = 60 * 60 * 1000;

/**
 * How much of its time to live an acceptance shared in Redis may lose before it is written again:
 * a credential read again and again is written about ten times per time to live, not on every read.
 */
export const ACCEPTED_CREDENTIAL_REFRESH_SHARE = 0.1;

/** Operation names kept as metric labels; others are counted under one label, so that clients cannot grow the series count. */
export const MAX_OPERATION_NAME_LABELS = 200;

/** Partner envelope codes kept as metric labels: a misbehaving upstream cannot blow up the series count. */
export const MAX_ENVELOPE_CODES = 100;

/** How often the embedded simulator's demo inventory changes (simulator tradeOverTime): GraphiQL's live tab shows an event this often. */
export const DEMO_TRADE_EVERY_MS = 20_000;

/** A live poll's wait is lengthened by up to this share of it at random, so that groups opened together do not poll the partner together. */
export const LIVE_POLL_JITTER = 0.1;

/** While a live group's reads fail, its wait doubles per failed poll up to this many intervals: the partner is left alone while it recovers. */
export const LIVE_MAX_BACKOFF_INTERVALS = 8;

/**
 * A replica reads a live selection itself once the group's lease holder has published nothing for
 * it in this many waits (a holder gone quiet, or a selection of this replica alone); the lease lasts
 * as long past the holder's next poll. Two: one late publication is not yet a dead holder.
 */
export const LIVE_QUIET_WAITS = 2;
