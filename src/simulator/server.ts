// The partner simulator: a real HTTP server implementing the two specified operations of
// partner-api.md with its envelope, plus the switches the document leaves open (whether
// startAssetId is inclusive, a cap on count), injectable latency and faults, and call records.
// Faults come as Envoy's fault filter brings them: set through the API by rate, or asked for by a
// request's headers (x-fault-abort, x-fault-delay-ms, x-fault-body; docs/simulator.md).
// The call records hold fingerprints of the secrets a call carried, never the secrets, and the
// admin routes over HTTP answer only when the one who started it asked for them (adminRoutes).
// Imported only by the entry point and by tests.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_APP_KEY, indexOfAsset, inventorySize, itemAt, listingFeeFor } from './data.js';
import type { SimulatedItem } from './wire.js';

export type SimulatedOperation = 'readInventory' | 'calculateListingFee';

export type FaultKind =
  | 'http-500'
  | 'http-502'
  | 'http-503'
  | 'http-504'
  | 'http-401'
  | 'http-403'
  | 'http-429'
  | 'reset'
  | 'non-json'
  | 'html'
  | 'truncated-json'
  | 'envelope-error'
  | 'bad-shape'
  | 'count-mismatch'
  | 'reversed-results'
  | 'slow'
  | 'echo-url'
  | 'wrong-types'
  | 'abort'
  | 'slow-body'
  | 'truncated-body'
  | 'wrong-content-type';

export interface Fault {
  kind: FaultKind;
  /** Only calls of this operation; all when omitted. */
  operation?: SimulatedOperation;
  /** Only inventory reads of this platformId (one user's broken inventory); all when omitted. */
  platformId?: string;
  /** Affect this many matching calls, then retire; every matching call when omitted. */
  times?: number;
  /** Affect each matching call with this probability (deterministic sequence); 1 when omitted. */
  rate?: number;
  /** For 'slow': the delay before the normal answer; for 'slow-body': the time its body takes to arrive. */
  delayMs?: number;
  /** For 'abort': the HTTP status answered instead (any, 200 to 599). */
  status?: number;
  /** For 'http-429': the Retry-After header, in seconds. */
  retryAfter?: number;
  /** For 'bad-shape': the envelope's `data`; by default one with every checked field wrong. */
  data?: unknown;
  /** For 'envelope-error': echo the call's query string and app-key in the error, as careless gateways do. */
  echo?: boolean;
}

export interface SimulatorSettings {
  /** true: startAssetId names the first item of the answer; false: the answer starts after it. */
  startInclusive: boolean;
  /** The most items one inventory call answers, whatever `count` asks; null for no cap. */
  countCap: number | null;
  /** Items answered when `count` is absent. */
  defaultCount: number;
  /** Added to every answer. */
  latencyMs: number;
  /** Added to every listing-fee answer, on top of latencyMs: the slow half of a page with fees. */
  listingFeeLatencyMs: number;
  /** The merchant key the calculate operation demands. */
  appKey: string;
  /** The most entries one calculate call takes (the simulator's documented limit). */
  dataListMax: number;
  faults: Fault[];
}

export interface CallRecord {
  operation: SimulatedOperation | 'unknown';
  method: string;
  path: string;
  /**
   * Query parameters as received, but the secrets (`access_token`, `app-key`) as their fingerprint
   * (PartnerSimulator.fingerprint): tests check the token forwarding from here.
   */
  query: Record<string, string>;
  /** The fingerprints of the app-key header and query parameter as received. */
  appKeyHeader: string | null;
  appKeyQuery: string | null;
  requestId: string | null;
  /** For calculate: the number of dataList entries. */
  batchSize?: number;
  fault?: FaultKind;
}

const MAX_RECORDS = 10_000;

/**
 * The largest request body the simulator reads, on every route: a listing-fee call of
 * LISTING_FEE_BATCH_MAX's most (1000 entries) is under 100 KB. A larger one, declared or streamed,
 * is answered 413 and never kept.
 */
export const SIMULATOR_MAX_BODY_BYTES = 256 * 1024;

/** How long a refused body is still read and dropped after its 413, so that its client sees the answer rather than a reset. */
const LINGER_MS = 2_000;

/** The query parameters that carry a secret (partner-api.md: the user's token, the merchant key). */
const SECRET_PARAMETERS = ['access_token', 'app-key'];

export const DEFAULT_SETTINGS: SimulatorSettings = {
  startInclusive: false,
  countCap: null,
  defaultCount: 20,
  latencyMs: 0,
  listingFeeLatencyMs: 0,
  appKey: DEMO_APP_KEY,
  dataListMax: 100,
  faults: [],
};

export class PartnerSimulator {
  readonly calls: CallRecord[] = [];
  settings: SimulatorSettings;
  private randomState = 1;
  /** The key of this simulator's fingerprints: made at start, known to nothing outside the process. */
  private readonly fingerprintKey = randomBytes(32);
  /** Items traded away from the start of each inventory (tradeAway), by `appId/platformId`. */
  private readonly tradedAway = new Map<string, number>();
  /** Trade holds (holdItem): by `appId/platformId`, then item index, the clock time (ms) each ends. */
  private readonly holds = new Map<string, Map<number, number>>();
  /**
   * The simulator's clock, in milliseconds: a hold ends once it passes the hold's time. A test sets
   * its own to end holds when it chooses; the other answers do not read it.
   */
  clock: () => number = Date.now;
  /** While set, listing-fee calls are received and recorded but not answered (holdListingFees). */
  private listingFeeHold: { released: Promise<void>; release: () => void } | null = null;

  constructor(
    private readonly server: Server,
    settings: Partial<SimulatorSettings> = {},
    /** Whether /__simulator/calls, /configure and /reset answer over HTTP (404 otherwise). */
    readonly adminRoutes = false,
  ) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings, faults: [...(settings.faults ?? [])] };
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /**
   * What a call record holds in place of a secret: an HMAC-SHA256 of it under this simulator's own
   * random key, so that a test in the process can match the token a call carried, while the record
   * (and /__simulator/calls) gives no one the secret, nor a digest to test guesses against.
   */
  fingerprint(secret: string): string {
    return `hmac-sha256:${createHmac('sha256', this.fingerprintKey).update(secret).digest('hex').slice(0, 32)}`;
  }

  configure(settings: Partial<SimulatorSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  injectFault(fault: Fault): void {
    this.settings.faults.push({ ...fault });
  }

  /**
   * Holds every listing-fee call (received, recorded, not answered) until the returned function is
   * called: a test sees what a client gets while the fees are still on their way, whatever the timing.
   */
  holdListingFees(): () => void {
    if (!this.listingFeeHold) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      this.listingFeeHold = { released, release };
    }
    const hold = this.listingFeeHold;
    return () => {
      if (this.listingFeeHold === hold) this.listingFeeHold = null;
      hold.release();
    };
  }

  /**
   * Trades the first `count` items of an inventory away (a negative count receives them back): its
   * answers start after them and its total shrinks, as a live inventory changes.
   */
  tradeAway(platformId: string, appId: number, count = 1): void {
    const key = `${appId}/${platformId}`;
    this.tradedAway.set(key, Math.max(0, (this.tradedAway.get(key) ?? 0) + count));
  }

  /**
   * Puts the item at `index` on a trade hold until `untilMs` on the simulator's clock (rounded up to
   * a second, the wire's unit): its `tradableTime` is the hold's end and `ifTradable` false until
   * the clock passes it, then true, as a received item's hold ends upstream. `tradable` stays null,
   * the only value partner-api.md observed.
   */
  holdItem(platformId: string, appId: number, index: number, untilMs: number): void {
    const key = `${appId}/${platformId}`;
    if (!this.holds.has(key)) this.holds.set(key, new Map());
    this.holds.get(key)!.set(index, Math.ceil(untilMs / 1000) * 1000);
  }

  /** The hold of an answered item, applied to it (holdItem). */
  applyHold(item: SimulatedItem, index: number): void {
    const until = this.holds.get(`${item.appId}/${item.platformId}`)?.get(index);
    if (until === undefined) return;
    item.tradableTime = until / 1000;
    item.ifTradable = this.clock() >= until;
  }

  /**
   * Trades every `everyMs` on the embedded simulator, so that a live subscription in GraphiQL shows
   * changes: an item of the inventory traded away, and received back on the next turn with a hold
   * that ends half a turn later. Returns the function that stops it.
   */
  tradeOverTime(platformId: string, appId: number, everyMs: number): () => void {
    let away = false;
    const timer = setInterval(() => {
      this.tradeAway(platformId, appId, away ? -1 : 1);
      if (away) this.holdItem(platformId, appId, this.tradedAwayOf(platformId, appId), this.clock() + everyMs / 2);
      away = !away;
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** How many items of the inventory's start are traded away. */
  tradedAwayOf(platformId: string, appId: number): number {
    return this.tradedAway.get(`${appId}/${platformId}`) ?? 0;
  }

  /** Resolves once listing-fee calls may be answered. */
  listingFeesReleased(): Promise<void> {
    return this.listingFeeHold?.released ?? Promise.resolve();
  }

  /** Forgets faults, records and setting changes: the state of a freshly started simulator. */
  reset(settings: Partial<SimulatorSettings> = {}): void {
    this.listingFeeHold?.release();
    this.listingFeeHold = null;
    this.settings = { ...DEFAULT_SETTINGS, ...settings, faults: [...(settings.faults ?? [])] };
    this.calls.length = 0;
    this.tradedAway.clear();
    this.holds.clear();
    this.clock = Date.now;
    this.randomState = 1;
  }

  /** Keeps the newest records only, so that a long-running simulator does not grow. */
  record(call: CallRecord): void {
    this.calls.push(call);
    if (this.calls.length > 2 * MAX_RECORDS) this.calls.splice(0, this.calls.length - MAX_RECORDS);
  }

  callsOf(operation: SimulatedOperation): CallRecord[] {
    return this.calls.filter((call) => call.operation === operation);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Picks the fault for this call, if any, and uses it up. */
  takeFault(operation: SimulatedOperation, platformId?: string): Fault | undefined {
    for (const fault of this.settings.faults) {
      if (fault.operation && fault.operation !== operation) continue;
      if (fault.platformId !== undefined && fault.platformId !== platformId) continue;
      if (fault.times !== undefined && fault.times <= 0) continue;
      if (fault.rate !== undefined && this.nextRandom() >= fault.rate) continue;
      if (fault.times !== undefined) fault.times -= 1;
      return fault;
    }
    return undefined;
  }

  /**
   * The fault a request's own headers ask for, Envoy's way: `x-fault-abort: <status>|reset` (with
   * `x-fault-abort-percent`), `x-fault-delay-ms: <ms>` (with `x-fault-delay-percent`), and
   * `x-fault-body: slow|truncated|wrong-content-type` (with `x-fault-body-percent`; a slow body
   * takes `x-fault-delay-ms`, 2000 by default). The percentages draw on the seeded sequence.
   */
  headerFault(req: IncomingMessage): Fault | undefined {
    const chosen = (name: string) => {
      const percent = header(req, `${name}-percent`);
      return percent === null || this.nextRandom() * 100 < Number(percent);
    };
    const abort = header(req, 'x-fault-abort');
    if (abort !== null && chosen('x-fault-abort')) {
      if (abort === 'reset') return { kind: 'reset' };
      const status = Number(abort);
      if (Number.isInteger(status) && status >= 200 && status <= 599) return { kind: 'abort', status };
    }
    const delay = header(req, 'x-fault-delay-ms');
    const body = header(req, 'x-fault-body');
    if (body !== null && chosen('x-fault-body')) {
      const kind = ({ slow: 'slow-body', truncated: 'truncated-body', 'wrong-content-type': 'wrong-content-type' } as const)[body];
      if (kind) return { kind, delayMs: delay === null ? undefined : Number(delay) };
    }
    if (delay !== null && Number(delay) >= 0 && chosen('x-fault-delay')) return { kind: 'slow', delayMs: Number(delay) };
    return undefined;
  }

  /** A small deterministic PRNG (mulberry32), so that a fault rate gives the same run each time. */
  private nextRandom(): number {
    let t = (this.randomState += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

export interface StartSimulatorOptions extends Partial<SimulatorSettings> {
  port?: number;
  host?: string;
  /**
   * Opens the admin routes over HTTP (/__simulator/calls, /configure, /reset); off by default, as
   * they let any local process reconfigure the simulator. Tests drive it through its object.
   */
  adminRoutes?: boolean;
}

export async function startSimulator(options: StartSimulatorOptions = {}): Promise<PartnerSimulator> {
  const { port = 0, host = '127.0.0.1', adminRoutes = false, ...settings } = options;
  const server = createServer({ keepAlive: true });
  const simulator = new PartnerSimulator(server, settings, adminRoutes);
  server.on('request', (req, res) => {
    handle(simulator, req, res).catch((error: unknown) => {
      if (error instanceof BodyTooLarge) return refuseBody(req, res);
      if (!res.headersSent) send(res, 500, 'text/plain', `simulator failure: ${String(error)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return simulator;
}

const INVENTORY_PATH = /^\/api\/user\/v2\/([^/]+)\/([^/]+)$/;
const CALCULATE_PATH = '/merchant/sale/v1/calculate';

async function handle(simulator: PartnerSimulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  if (url.pathname.startsWith('/__simulator/')) {
    if (!simulator.adminRoutes) return refuseAdmin(req, res);
    return handleAdmin(simulator, url.pathname, req, res);
  }

  const inventoryMatch = req.method === 'GET' ? INVENTORY_PATH.exec(url.pathname) : null;
  const operation: CallRecord['operation'] = inventoryMatch
    ? 'readInventory'
    : req.method === 'POST' && url.pathname === CALCULATE_PATH
      ? 'calculateListingFee'
      : 'unknown';
  const query = Object.fromEntries(url.searchParams);
  const appKey = header(req, 'app-key') ?? url.searchParams.get('app-key');
  const hidden = (value: string | null) => (value === null ? null : simulator.fingerprint(value));
  const record: CallRecord = {
    operation,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(Object.entries(query).map(([name, value]) => [name, SECRET_PARAMETERS.includes(name) ? simulator.fingerprint(value) : value])),
    appKeyHeader: hidden(header(req, 'app-key')),
    appKeyQuery: hidden(url.searchParams.get('app-key')),
    requestId: header(req, 'x-request-id'),
  };
  simulator.record(record);
  const body = await readBody(req);
  // The base itself answers, as a server that is up does: the service's readiness probe is a HEAD
  // of the base, and "reachable" beside a 404 reads as a fault to whoever looks at /readiness.
  if (operation === 'unknown' && url.pathname === '/' && (req.method === 'HEAD' || req.method === 'GET')) {
    return send(res, 200, 'text/plain', 'partner simulator: docs/simulator.md');
  }
  if (operation === 'unknown') return send(res, 404, 'text/plain', 'not found');

  const { latencyMs, listingFeeLatencyMs } = simulator.settings;
  if (latencyMs > 0) await sleep(latencyMs);
  if (operation === 'calculateListingFee') {
    if (listingFeeLatencyMs > 0) await sleep(listingFeeLatencyMs);
    await simulator.listingFeesReleased();
  }
  const platformId = inventoryMatch ? decodeURIComponent(inventoryMatch[1]!) : undefined;
  const fault = simulator.headerFault(req) ?? simulator.takeFault(operation, platformId);
  if (fault) {
    record.fault = fault.kind;
    // What careless gateways echo: the call's secrets as received, which the facade must redact.
    const received = `${new URLSearchParams(query).toString()} app-key=${appKey ?? ''}`;
    if (await answerFault(fault, operation, res, received, req.url ?? '')) return;
  }

  if (operation === 'readInventory') {
    return answerInventory(simulator, platformId!, inventoryMatch![2]!, url.searchParams, res, fault?.kind);
  }
  return answerCalculate(simulator, record, appKey, body, res, fault?.kind);
}

function answerInventory(
  simulator: PartnerSimulator,
  platformId: string,
  appIdText: string,
  params: URLSearchParams,
  res: ServerResponse,
  fault?: FaultKind,
): void {
  const token = params.get('access_token');
  if (!token || token.startsWith('expired')) return send(res, 401, 'application/json', '{"message":"unauthorized"}');
  if (token.startsWith('forbidden')) return send(res, 403, 'application/json', '{"message":"forbidden"}');
  const appId = Number(appIdText);
  const countText = params.get('count');
  const startText = params.get('startAssetId');
  if (!/^\d+$/.test(appIdText) || (countText !== null && !/^\d+$/.test(countText)) || (startText !== null && !/^\d+$/.test(startText))) {
    return envelope(res, { success: false, data: null, errorCode: 400, errorMsg: 'invalid parameter', errorCodeStr: 'PARAM_INVALID', errorData: null });
  }
  const size = inventorySize(platformId);
  const { startInclusive, countCap, defaultCount } = simulator.settings;
  const gone = Math.min(size, simulator.tradedAwayOf(platformId, appId));
  let from = gone;
  if (startText !== null) {
    const at = indexOfAsset(platformId, appId, startText, size);
    from = at < 0 ? size : Math.max(gone, startInclusive ? at : at + 1);
  }
  const asked = countText === null ? defaultCount : Number(countText);
  const count = countCap === null ? asked : Math.min(asked, countCap);
  const list = [];
  for (let index = from; index < Math.min(size, from + count); index++) {
    const item = itemAt(platformId, appId, index);
    simulator.applyHold(item, index);
    list.push(item);
  }
  if (fault === 'wrong-types') {
    // Values that do not fit the fields' types, as a careless upstream might send them.
    for (const item of list) Object.assign(item, { appId: 'x', ifTradable: 'yes', status: 'active' });
  }
  envelope(res, {
    success: true,
    data: {
      platformId,
      appId,
      total: size - gone,
      // The document's examples show a null lastAssetId for a one-item inventory.
      lastAssetId: size - gone === 1 ? null : (list[list.length - 1]?.assetId ?? null),
      list,
    },
    errorCode: 0,
    errorMsg: null,
    errorData: null,
    errorCodeStr: null,
  });
}

function answerCalculate(
  simulator: PartnerSimulator,
  record: CallRecord,
  appKey: string | null,
  body: string,
  res: ServerResponse,
  fault: FaultKind | undefined,
): void {
  if (appKey !== simulator.settings.appKey) {
    return envelope(res, { success: false, data: null, errorCode: 40_101, errorMsg: 'app-key invalid', errorCodeStr: 'APP_KEY_INVALID', errorData: null });
  }
  let dataList: unknown;
  try {
    dataList = (JSON.parse(body) as { dataList?: unknown }).dataList;
  } catch {
    dataList = undefined;
  }
  const entries = Array.isArray(dataList) ? (dataList as Array<Record<string, unknown>>) : null;
  record.batchSize = entries?.length;
  const valid =
    entries !== null &&
    entries.length >= 1 &&
    entries.length <= simulator.settings.dataListMax &&
    entries.every((entry) => typeof entry === 'object' && entry !== null && Number.isSafeInteger(entry.price) && (entry.price as number) > 0);
  if (!valid) {
    return envelope(res, {
      success: false,
      data: null,
      errorCode: 40_001,
      errorMsg: `dataList must hold 1 to ${simulator.settings.dataListMax} items with a positive integer price`,
      errorCodeStr: 'DATA_LIST_INVALID',
      errorData: { size: entries?.length ?? null },
    });
  }
  const data = entries.map((entry) =>
    listingFeeFor({ price: entry.price as number, token: entry.token as string | undefined, styleToken: entry.styleToken as string | undefined }),
  );
  if (fault === 'count-mismatch') data.pop();
  if (fault === 'reversed-results') data.reverse();
  envelope(res, { success: true, data, errorCode: 0, errorMsg: null, errorData: null, errorCodeStr: null });
}

/** Answers a fault; false when the fault only delays and the normal answer should follow. */
async function answerFault(
  fault: Fault,
  operation: SimulatedOperation,
  res: ServerResponse,
  received: string,
  requestUrl: string,
): Promise<boolean> {
  switch (fault.kind) {
    case 'echo-url':
      // A gateway that repeats the request URL, query string (and its access_token) included.
      envelope(res, {
        success: false,
        data: null,
        errorCode: 10_500,
        errorMsg: `upstream failure for GET ${requestUrl}`,
        errorCodeStr: 'GATEWAY_ECHO',
        errorData: { url: requestUrl },
      });
      return true;
    case 'slow':
      await sleep(fault.delayMs ?? 10_000);
      return false;
    case 'count-mismatch':
    case 'reversed-results':
    case 'wrong-types':
      return false;
    case 'slow-body':
    case 'truncated-body':
    case 'wrong-content-type':
      // The normal answer, sent the faulty way (see send).
      BODY_FAULTS.set(res, fault);
      return false;
    case 'abort':
      send(res, fault.status ?? 503, 'text/plain', `simulated abort ${fault.status ?? 503}`);
      return true;
    case 'http-500':
    case 'http-502':
    case 'http-503':
    case 'http-504':
    case 'http-401':
    case 'http-403':
      send(res, Number(fault.kind.slice(5)), 'text/plain', `simulated ${fault.kind}`);
      return true;
    case 'http-429':
      res.setHeader('retry-after', String(fault.retryAfter ?? 7));
      send(res, 429, 'text/plain', 'slow down');
      return true;
    case 'reset':
      res.socket?.destroy();
      return true;
    case 'non-json':
      send(res, 200, 'application/json', 'this is not JSON');
      return true;
    case 'html':
      send(res, 200, 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>');
      return true;
    case 'truncated-json':
      send(res, 200, 'application/json', '{"success":true,"data":{"total":3,"list":[{"assetId":"1"');
      return true;
    case 'envelope-error': {
      envelope(res, {
        success: false,
        data: null,
        errorCode: 10_086,
        errorMsg: fault.echo ? `用户库存读取失败 (simulated) for ${received}` : '用户库存读取失败 (simulated)',
        errorCodeStr: 'INVENTORY_READ_FAILED',
        errorData: fault.echo ? { received } : { hint: 'simulated envelope error' },
      });
      return true;
    }
    case 'bad-shape':
      envelope(res, {
        success: true,
        data: fault.data ?? (operation === 'readInventory' ? { total: 'many', list: 'not a list' } : { not: 'an array' }),
        errorCode: 0,
        errorMsg: null,
        errorData: null,
        errorCodeStr: null,
      });
      return true;
  }
}

async function handleAdmin(simulator: PartnerSimulator, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (path === '/__simulator/calls' && req.method === 'GET') {
    return send(res, 200, 'application/json', JSON.stringify({ calls: simulator.calls }));
  }
  if (path === '/__simulator/reset' && req.method === 'POST') {
    simulator.reset(body ? (JSON.parse(body) as Partial<SimulatorSettings>) : {});
    return send(res, 200, 'application/json', JSON.stringify(simulator.settings));
  }
  if (path === '/__simulator/configure' && req.method === 'POST') {
    simulator.configure(JSON.parse(body) as Partial<SimulatorSettings>);
    return send(res, 200, 'application/json', JSON.stringify(simulator.settings));
  }
  send(res, 404, 'text/plain', 'not found');
}

function envelope(res: ServerResponse, value: unknown): void {
  send(res, 200, 'application/json', JSON.stringify(value));
}

/** The body faults of answers being sent: the answer is the normal one, its delivery is not. */
const BODY_FAULTS = new WeakMap<ServerResponse, Fault>();

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  const fault = BODY_FAULTS.get(res);
  const type = fault?.kind === 'wrong-content-type' ? 'text/html' : contentType;
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(body) });
  if (fault?.kind === 'truncated-body') {
    // The declared length, half the bytes, then the connection closes: a body cut in transit.
    const bytes = Buffer.from(body, 'utf8');
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
    return;
  }
  if (fault?.kind === 'slow-body') {
    void trickle(res, Buffer.from(body, 'utf8'), fault.delayMs ?? 2000);
    return;
  }
  res.end(body);
}

/** Sends a body in ten parts spread over `durationMs`, as a congested link delivers it. */
async function trickle(res: ServerResponse, body: Buffer, durationMs: number): Promise<void> {
  const parts = 10;
  const size = Math.ceil(body.length / parts);
  for (let offset = 0; offset < body.length; offset += size) {
    if (res.destroyed) return;
    res.write(body.subarray(offset, offset + size));
    await sleep(durationMs / parts);
  }
  res.end();
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** A body over SIMULATOR_MAX_BODY_BYTES: answered 413 (refuseBody). */
class BodyTooLarge extends Error {}

/**
 * Reads a request's body up to SIMULATOR_MAX_BODY_BYTES; throws BodyTooLarge, with the rest
 * unread, for a body declared larger or streamed past it.
 */
async function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > SIMULATOR_MAX_BODY_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  // Not destroyed on the way out: refuseBody still answers on its connection.
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > SIMULATOR_MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Answers 413 while the client may still be sending: the answer goes out now, the rest of the
 * body is read and dropped for LINGER_MS at most (closing with bytes unread would reset the
 * connection before the client reads the answer), then the connection closes.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse): void {
  const text = `request body over ${SIMULATOR_MAX_BODY_BYTES} bytes`;
  res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' });
  res.write(text);
  const finish = () => {
    clearTimeout(lingering);
    if (!res.writableEnded) res.end();
  };
  const lingering = setTimeout(() => {
    finish();
    req.destroy();
  }, LINGER_MS);
  req.once('end', finish);
  req.once('error', finish);
  res.once('close', () => clearTimeout(lingering));
  req.resume();
}

/** An admin route of a simulator started without them: as if there were none, its body read within the cap. */
async function refuseAdmin(req: IncomingMessage, res: ServerResponse): Promise<void> {
  await readBody(req);
  send(res, 404, 'text/plain', 'not found');
}
