// The poller behind Subscription.inventory. Subscribers are grouped by (credential, inventory): a
// group polls once per interval, and each poll runs every distinct selection of the group against
// one fresh set of loaders, so that selections of the same page share one partner read (the page
// loader merges them) and each subscriber is sent its own selection's result, only when it changed.
// The first event comes at once: the last result of the selection when there is one, else a run now.
// With a relay (Redis), one replica of the fleet polls a group: the others deliver what it publishes.
import stableStringify from 'fast-json-stable-stringify';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { Repeater } from 'graphql-yoga';
import { ErrorCode } from '../errors.js';
import { published, type LiveRelay } from './relay.js';
import { LIVE_MAX_BACKOFF_INTERVALS, LIVE_POLL_JITTER, LIVE_QUIET_WAITS } from '../tunables.js';

/** What one poll of a group runs its selections with: made fresh per poll, shared by its selections. */
export interface Tick {
  /** Aborted when the group closes (its last subscriber left, or shutdown). */
  readonly signal: AbortSignal;
  /** When the tick was made (the clock's milliseconds). */
  readonly at: number;
}

export interface LiveSelection {
  /** Same key, same document and variables: one run per poll for all of them. */
  readonly key: string;
  run(tick: Tick): Promise<ExecutionResult>;
  /** Called once the subscriber of this call has left (or was ended). */
  onEnd?(): void;
  /** Charges this subscriber for a poll it shared; a refusal is sent as its last event. */
  charge?(): Promise<GraphQLError | null>;
}

export interface LiveClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface LiveHubOptions {
  /** The wait between two polls of a group while its partner reads succeed. */
  intervalMs: number;
  /** How long a tick's loaders serve a newcomer's selection (the interval when omitted); then it gets a tick of its own. */
  reuseTickMs?: number;
  /** Each group's wait grows by up to this share of it, at random, so that groups opened together spread out. */
  jitter?: number;
  /** The longest wait while a group's reads fail (back-off doubles the interval up to this). */
  maxBackoffMs?: number;
  clock?: LiveClock;
  random?: () => number;
  /**
   * Told of every poll, with the subscribers it served: polls saved by sharing are `subscribers - 1`;
   * of a poll `heard` from the group's holder (relay), all of them.
   */
  onPoll?: (subscribers: number, heard?: boolean) => void;
  /** Shares each group's polls with the fleet: only the lease's holder polls, the others hear its results. */
  relay?: LiveRelay;
}

const SYSTEM_CLOCK: LiveClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** Codes of a read that failed upstream: the group backs off while its polls end in one of them. */
const UPSTREAM_FAILURES: ReadonlySet<string> = new Set([
  ErrorCode.UPSTREAM_UNAVAILABLE,
  ErrorCode.UPSTREAM_TIMEOUT,
  ErrorCode.UPSTREAM_ERROR,
  ErrorCode.UPSTREAM_BAD_RESPONSE,
  ErrorCode.RATE_LIMITED,
  ErrorCode.OVERLOADED,
]);

interface Sink {
  push(result: ExecutionResult): void;
  end(): void;
  /** The fingerprint of the last result sent, so that a subscriber is never sent the same result twice. */
  sent: string | undefined;
  charge?: () => Promise<GraphQLError | null>;
}

interface Selection {
  spec: LiveSelection;
  sinks: Set<Sink>;
  last?: { fingerprint: string; result: ExecutionResult };
  running?: Promise<void>;
  /** When the lease's holder last published this selection's result (the clock's milliseconds). */
  heardAt?: number;
}

interface Group {
  key: string;
  selections: Map<string, Selection>;
  controller: AbortController;
  timer?: unknown;
  /** The tick of the last poll: a newcomer's selection runs on it (its loaders hold this interval's pages). */
  tick?: Tick;
  failures: number;
  closed: boolean;
  /** This replica holds the group's lease (or polls alone): it polls every selection and publishes the results. */
  leading: boolean;
  /** The lease asked for when the next poll was scheduled: whether this replica leads that poll. */
  lease?: Promise<boolean>;
}

export class LiveHub {
  readonly #groups = new Map<string, Group>();
  readonly #clock: LiveClock;
  readonly #random: () => number;
  #closed = false;

  constructor(private readonly options: LiveHubOptions) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#random = options.random ?? Math.random;
  }

  /** Subscribers open now. */
  get subscribers(): number {
    let count = 0;
    for (const group of this.#groups.values()) count += subscribersOf(group.selections.values());
    return count;
  }

  /** Groups polling now. */
  get groups(): number {
    return this.#groups.size;
  }

  /** The results of `selection` for this group, the first at once, then each change, until the client leaves. */
  subscribe(groupKey: string, spec: LiveSelection): AsyncIterableIterator<ExecutionResult> {
    return new Repeater<ExecutionResult>(async (push, stop) => {
      if (this.#closed) return stop();
      const sink: Sink = { push: (result) => void push(result), end: () => stop(), sent: undefined, charge: spec.charge?.bind(spec) };
      const group = this.#groupOf(groupKey);
      let selection = group.selections.get(spec.key);
      if (!selection) group.selections.set(spec.key, (selection = { spec, sinks: new Set() }));
      selection.sinks.add(sink);
      if (selection.last) this.#send(sink, selection.last);
      else if (!selection.running) this.#runAlone(group, selection);
      await stop;
      selection.sinks.delete(sink);
      if (selection.sinks.size === 0) group.selections.delete(spec.key);
      if (group.selections.size === 0) this.#closeGroup(group);
      spec.onEnd?.();
    });
  }

  /** Ends every subscription (shutdown): each stream completes, and no poll starts again. */
  close(): void {
    this.#closed = true;
    for (const group of [...this.#groups.values()]) this.#endGroup(group);
    this.options.relay?.close();
  }

  #groupOf(key: string): Group {
    let group = this.#groups.get(key);
    if (!group) {
      const created: Group = { key, selections: new Map(), controller: new AbortController(), failures: 0, closed: false, leading: false };
      this.options.relay?.listen(key, (results) => this.#hear(created, results));
      this.#groups.set(key, (group = created));
    }
    return group;
  }

  /** A selection new to its group runs at once, on this interval's tick when the group has one. */
  #runAlone(group: Group, selection: Selection): void {
    const first = group.tick === undefined;
    const reusable = group.tick !== undefined && this.#clock.now() - group.tick.at < (this.options.reuseTickMs ?? this.options.intervalMs);
    const tick = reusable ? group.tick! : this.#newTick(group);
    group.tick = tick;
    selection.running = this.#runSelections(group, [selection], tick).then(() => {
      selection.running = undefined;
      // The group's first read: the interval starts once it is answered.
      if (first && !group.closed && group.timer === undefined) this.#schedule(group);
    });
  }

  #newTick(group: Group): Tick {
    return { signal: group.controller.signal, at: this.#clock.now() };
  }

  async #poll(group: Group): Promise<void> {
    group.timer = undefined;
    if (group.closed) return;
    const selections = await this.#selectionsToPoll(group);
    if (group.closed) return;
    if (selections.length > 0) {
      const tick = (group.tick = this.#newTick(group));
      this.options.onPoll?.(subscribersOf(selections));
      const failed = await this.#runSelections(group, selections, tick);
      if (group.closed) return;
      for (const selection of selections) for (const sink of selection.sinks) this.#charge(sink);
      group.failures = failed ? group.failures + 1 : 0;
    }
    this.#schedule(group);
  }

  /**
   * Every selection, when this replica leads the group; else only those the holder has not
   * published lately (a selection of this replica alone, or a holder gone quiet): never lost.
   */
  async #selectionsToPoll(group: Group): Promise<Selection[]> {
    const { relay } = this.options;
    if (relay) group.leading = await (group.lease ?? relay.lead(group.key, LIVE_QUIET_WAITS * this.#baseWait(group)));
    group.lease = undefined;
    const selections = [...group.selections.values()];
    if (!relay || group.leading) return selections;
    const now = this.#clock.now();
    const quiet = LIVE_QUIET_WAITS * this.#baseWait(group);
    return selections.filter((selection) => selection.heardAt === undefined || now - selection.heardAt > quiet);
  }

  /** What the group's holder published: delivered and charged as a poll of this replica's own would be. */
  #hear(group: Group, heard: [string, ExecutionResult][]): void {
    if (group.closed || group.leading) return;
    const selections: Selection[] = [];
    const results: ExecutionResult[] = [];
    for (const [key, result] of heard) {
      const selection = group.selections.get(key);
      if (!selection) continue;
      selection.heardAt = this.#clock.now();
      selections.push(selection);
      results.push(result);
    }
    if (selections.length === 0) return;
    this.options.onPoll?.(subscribersOf(selections), true);
    // Its failures back this replica off too, should it have to poll a selection itself.
    group.failures = this.#deliver(group, selections, results) ? group.failures + 1 : 0;
    if (group.closed) return;
    for (const selection of selections) for (const sink of selection.sinks) this.#charge(sink);
  }

  /** Runs the selections on one tick and sends each changed result (published when leading); true when a read failed upstream. */
  async #runSelections(group: Group, selections: Selection[], tick: Tick): Promise<boolean> {
    const results = await Promise.all(selections.map((selection) => selection.spec.run(tick).catch(unexpectedFailure)));
    if (group.closed) return false;
    if (group.leading) this.options.relay?.publish(group.key, selections.map((selection, index) => [selection.spec.key, results[index]!]));
    return this.#deliver(group, selections, results);
  }

  /** Sends each selection's result to its subscribers that have not had it; true when a read failed upstream. */
  #deliver(group: Group, selections: Selection[], results: ExecutionResult[]): boolean {
    let failed = false;
    let refused = false;
    selections.forEach((selection, index) => {
      const result = results[index]!;
      const codes = (result.errors ?? []).map((error) => error.extensions?.code);
      if (codes.some((code) => typeof code === 'string' && UPSTREAM_FAILURES.has(code))) failed = true;
      if (codes.includes(ErrorCode.UNAUTHENTICATED)) refused = true;
      const last = { fingerprint: stableStringify(published(result)), result };
      selection.last = last;
      for (const sink of selection.sinks) this.#send(sink, last);
    });
    // A token the partner refuses will not be accepted on the next poll either: its streams end.
    if (refused) this.#endGroup(group);
    return failed;
  }

  /** A subscriber whose budget refuses a poll gets the refusal and its stream ends; the others go on. */
  #charge(sink: Sink): void {
    void sink.charge?.().then(
      (refusal) => {
        if (!refusal) return;
        sink.push({ errors: [refusal] });
        sink.end();
      },
      () => undefined,
    );
  }

  #send(sink: Sink, { fingerprint, result }: { fingerprint: string; result: ExecutionResult }): void {
    if (sink.sent === fingerprint) return;
    sink.sent = fingerprint;
    sink.push(result);
  }

  #schedule(group: Group): void {
    if (group.closed || this.#closed) return;
    const { jitter = LIVE_POLL_JITTER } = this.options;
    const base = this.#baseWait(group);
    // Jitter only lengthens the wait: a key is never read twice within one interval.
    const wait = base + Math.floor(this.#random() * jitter * base);
    // One lease request per poll, made now, for the wait and then as long as a follower waits before
    // reading itself: it covers the next poll's read however slow the partner is, and a holder that
    // dies is replaced that long after its next poll was due. A replica that does not hold it asks.
    group.lease = this.options.relay?.lead(group.key, wait + LIVE_QUIET_WAITS * base);
    group.timer = this.#clock.setTimeout(() => void this.#poll(group), wait);
  }

  /** The wait before a group's next poll, before jitter: the interval, doubled per failed poll up to the longest back-off. */
  #baseWait(group: Group): number {
    const { intervalMs, maxBackoffMs = intervalMs * LIVE_MAX_BACKOFF_INTERVALS } = this.options;
    return group.failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** group.failures);
  }

  #closeGroup(group: Group): void {
    if (group.closed) return;
    group.closed = true;
    if (group.timer !== undefined) this.#clock.clearTimeout(group.timer);
    group.timer = undefined;
    group.controller.abort();
    if (this.#groups.get(group.key) === group) this.#groups.delete(group.key);
    this.options.relay?.unlisten(group.key);
    // Held now, or asked for the next poll: given up either way, so another replica need not wait out
    // its time. Sent at once, behind any lease request on the same connection; the script deletes
    // the lease only while this replica holds it.
    this.options.relay?.release(group.key);
  }

  #endGroup(group: Group): void {
    const sinks = [...group.selections.values()].flatMap((selection) => [...selection.sinks]);
    this.#closeGroup(group);
    for (const sink of sinks) sink.end();
  }
}

function subscribersOf(selections: Iterable<Selection>): number {
  let count = 0;
  for (const selection of selections) count += selection.sinks.size;
  return count;
}

/** A run that threw rather than answering errors: the service's fault, which Yoga masks. */
function unexpectedFailure(error: unknown): ExecutionResult {
  return { errors: [error instanceof GraphQLError ? error : new GraphQLError('Unexpected error.', { originalError: error as Error })] };
}
