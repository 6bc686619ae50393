// One partner call's abort: its timeout at the partner and the departure of every caller waiting
// for it, in one signal that says which fired.

/**
 * One call's abort signal: it fires when the call's timeout passes, or when every caller waiting
 * for the call has gone (coalesce.ts, as a client's departure or as an operation's deadline), and
 * says which. The timeout counts the time at the partner only: its clock starts when the call holds
 * a connection (`atPartner`); the wait for one is the facade's own and ends as OVERLOADED
 * (connection-slots.ts). One timer per call, released when the call settles (timeout.ts)
 * (AbortSignal.timeout would keep its timer alive for the whole timeout after the call is done).
 * The call hands `signal`, its controller's, to undici, cockatiel's retry loop and the connection
 * slots.
 */
export class CallAbort {
  timedOut = false;
  deadlinePassed = false;
  clientGone = false;
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** Whether the call holds a connection (atPartner was called). */
  get reachedPartner(): boolean {
    return this.timer !== undefined;
  }

  /** Starts the clock of the time at the partner, once the call holds a connection. */
  atPartner(): void {
    if (this.signal.aborted || this.timer !== undefined) return;
    this.timer = setTimeout(this.onTimeout, this.timeoutMs);
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

  /** Once the call has settled: nothing can abort it any more. */
  dispose(): void {
    clearTimeout(this.timer);
  }

  private readonly onTimeout = () => {
    if (this.signal.aborted) return;
    this.timedOut = true;
    this.controller.abort();
  };
}
