// The abort signal of a partner call and of a client's departure: the part of an AbortSignal that
// its readers use (undici's `request` and the connection slots read `aborted` and `reason` and add
// and remove 'abort' listeners; cockatiel's retry loop reads `aborted`), without an EventTarget
// behind it. A Node
// AbortController and its signal cost a few microseconds to make and listen to, on every call of
// every request; a call's signal has one or two listeners and fires at most once.

/** What a partner call hears of the client that asked for it (context.ts) and of its own limits. */
export interface ClientGoneSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A signal that fires its listeners once, when `abort` is called. */
export class LightAbortSignal implements ClientGoneSignal {
  aborted = false;
  /** Why it fired: an AbortError, as AbortController.abort() gives. */
  reason: Error | undefined;
  private listeners: (() => void)[] = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }

  /** Forgets every listener without firing (what settled before the signal fired). */
  protected forgetListeners(): void {
    this.listeners = [];
  }

  protected abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    const listeners = this.listeners;
    this.listeners = [];
    // Every listener hears it, as from an EventTarget, even when one before it throws (a client's
    // departure must reach all of its calls); the first error is thrown once all have run.
    let failure: { error: unknown } | undefined;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/**
 * The signal as the libraries' types name it. undici accepts any signal with `addEventListener`
 * (it checks for the method, then reads `aborted` and `reason`), and cockatiel's retry loop reads
 * only `aborted`; the rest of the AbortSignal type is never called.
 */
export const asAbortSignal = (signal: LightAbortSignal): AbortSignal => signal as unknown as AbortSignal;
