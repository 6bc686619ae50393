// One partner call's abort: its timeout at the partner, the operation's deadline and the departure
// of every caller waiting for it, in one signal that says which fired.

/**
 * One call's abort signal: it fires when the call's timeout passes, when the operation's deadline
 * passes, or when the client that asked for the call goes away, and says which. The timeout counts
 * the time at the partner only: its clock starts when the call holds a connection (`atPartner`);
 * the wait for one is the facade's own and ends as OVERLOADED (connection-slots.ts). One timer per
 * call, set to whichever limit comes first and released when the call settles (timeout.ts) (AbortSignal.timeout
 * would keep its timer, and AbortSignal.any its links, alive for the whole timeout after the call is
 * done). The deadline is a point in time, not a timer of its own: only a call in flight can be cut
 * by it, so only calls need a timer. The call hands `signal`, its controller's, to undici, cockatiel's
 * retry loop and the connection slots.
 */
export class CallAbort {
  timedOut = false;
  deadlinePassed = false;
  clientGone = false;
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;
  private timer: NodeJS.Timeout | undefined;

  /** `deadlineAt` is on `performance.now()`'s clock. */
  constructor(
    private readonly timeoutMs: number,
    private readonly clientSignal: AbortSignal | undefined,
    private readonly deadlineAt?: number,
  ) {
    // An operation already out of time sends nothing more.
    if (deadlineAt !== undefined && deadlineAt <= performance.now()) this.onDeadline();
    if (clientSignal?.aborted) this.onClientGone();
    else clientSignal?.addEventListener('abort', this.onClientGone);
  }

  /** Whether the call holds a connection (atPartner was called). */
  get reachedPartner(): boolean {
    return this.timer !== undefined;
  }

  /** Starts the clock of the time at the partner, once the call holds a connection. */
  atPartner(): void {
    if (this.signal.aborted || this.timer !== undefined) return;
    const untilDeadline = this.deadlineAt === undefined ? Number.POSITIVE_INFINITY : this.deadlineAt - performance.now();
    if (untilDeadline <= 0) this.onDeadline();
    else if (untilDeadline <= this.timeoutMs) this.timer = setTimeout(this.onDeadline, untilDeadline);
    else this.timer = setTimeout(this.onTimeout, this.timeoutMs);
  }

  /**
   * Gives the call up because every caller waiting for it left (coalesce.ts): as a departure of
   * the client, or as the operation's deadline, whichever the last one to leave gave.
   */
  abandon(departure: 'clientGone' | 'deadline'): void {
    if (this.signal.aborted) return;
    if (departure === 'deadline') this.deadlinePassed = true;
    else this.clientGone = true;
    this.controller.abort();
  }

  /** Once the call has settled: nothing can abort it any more, and the client's signal forgets it. */
  dispose(): void {
    clearTimeout(this.timer);
    this.clientSignal?.removeEventListener('abort', this.onClientGone);
  }

  private readonly onTimeout = () => {
    if (this.signal.aborted) return;
    this.timedOut = true;
    this.controller.abort();
  };

  private readonly onDeadline = () => {
    if (this.signal.aborted) return;
    this.deadlinePassed = true;
    this.controller.abort();
  };

  private readonly onClientGone = () => {
    // The signal may tell of an ending that is not a departure (a response that finished).
    if (this.signal.aborted || !this.clientSignal?.aborted) return;
    this.clientGone = true;
    this.controller.abort();
  };
}
