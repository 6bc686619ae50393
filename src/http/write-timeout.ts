// Slow readers let go: an answer whose client stops reading it is cut once HTTP_WRITE_TIMEOUT_MS
// pass in which the client took less than WRITE_PROGRESS_BYTES of it, so that its operation slot
// (shedding.ts counts it until the response's 'close') and the memory of its unsent bytes are
// freed for other clients. Progress is what the client takes, never what it sends.
import type { ServerResponse } from 'node:http';
import { HTTP_CHECK_INTERVAL_MAX_MS, WRITE_PROGRESS_BYTES } from '../tunables.js';

/** Told of each answer cut, with the bytes it still had to send. */
export type AnswerCutListener = (pendingBytes: number) => void;


/** How often an answer with bytes queued is checked: a tenth of the timeout, at most 1 s. */
export const writeCheckIntervalMs = (timeoutMs: number) => Math.min(HTTP_CHECK_INTERVAL_MAX_MS, Math.ceil(timeoutMs / 10));

type WriteCallback = (error?: Error | null) => void;

/** `chunk` in pieces of WRITE_PROGRESS_BYTES, so that the client's progress is seen piece by piece; null when it fits in one. */
function piecesOf(chunk: unknown, encoding: BufferEncoding | undefined): Buffer[] | null {
  if (!(typeof chunk === 'string' || chunk instanceof Uint8Array) || chunk.length <= WRITE_PROGRESS_BYTES) return null;
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += WRITE_PROGRESS_BYTES) pieces.push(bytes.subarray(offset, offset + WRITE_PROGRESS_BYTES));
  return pieces;
}

/**
 * How much of an answer its connection has taken (each piece's write callback credits its bytes),
 * and the deadline of its watch: WRITE_PROGRESS_BYTES more taken since the last progress restart it.
 */
class Progress {
  /** Bytes of this answer the connection has taken. */
  #taken = 0;
  #takenAtProgress = 0;
  #deadline = 0;
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** `callback`, crediting `bytes` when the connection has taken them. */
  credit(bytes: number, callback: WriteCallback | undefined): WriteCallback {
    return (error) => {
      if (!error) this.#taken += bytes;
      callback?.(error);
    };
  }

  restart(now: number): void {
    this.#takenAtProgress = this.#taken;
    this.#deadline = now + this.#timeoutMs;
  }

  /** Whether the answer is past its deadline by `now`; progress restarts it. */
  passed(now: number): boolean {
    if (this.#taken - this.#takenAtProgress < WRITE_PROGRESS_BYTES) return now >= this.#deadline;
    this.restart(now);
    return false;
  }
}

/**
 * The response class, given to createServer, that watches an answer once it has more bytes than
 * its connection takes at once (write() answers false, or end() leaves bytes queued): a small
 * answer, the usual case, costs no timer.
 *
 * While bytes are queued, a check every writeCheckIntervalMs(timeoutMs) looks at how much of the
 * answer the connection has taken (each piece's write callback credits its bytes): WRITE_PROGRESS_BYTES more
 * since the last progress restart the deadline, and an answer past its deadline is cut. So an
 * answer is cut between timeoutMs and timeoutMs plus two intervals after its client last took
 * WRITE_PROGRESS_BYTES of it, whatever the client sends meanwhile, which a socket's idle timeout would
 * count as activity. Nothing queued (a stream between two parts, an operation still being worked
 * on) stops the watch: the operation's own deadline bounds that time.
 *
 * `any[]`: TypeScript takes a class as a mixin's base only with a constructor of that type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function cutUnreadAnswers<Base extends new (...args: any[]) => ServerResponse>(Response: Base, timeoutMs: number, onCut: AnswerCutListener): Base {
  const checkEveryMs = writeCheckIntervalMs(timeoutMs);
  return class UnreadAnswerCut extends Response {
    // Made by the first credit or watch: a small answer, never watched, has none.
    #progress: Progress | undefined;
    #check: NodeJS.Timeout | undefined;

    override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
      if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
      const flowing = this.#writeInPieces(chunk, encoding as BufferEncoding | undefined, callback as WriteCallback | undefined);
      if (!flowing) this.#watch();
      return flowing;
    }

    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      // A large last piece, after the head (Node would work out its content-length itself before),
      // goes in pieces like a write.
      if (this.headersSent && (typeof chunk === 'string' || chunk instanceof Uint8Array) && chunk.length > WRITE_PROGRESS_BYTES) {
        if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
        this.#writeInPieces(chunk, encoding as BufferEncoding | undefined, undefined);
        super.end(callback as () => void);
      } else {
        super.end(chunk, encoding as BufferEncoding, callback as () => void);
      }
      if (this.writableLength > 0) this.#watch();
      return this;
    }

    /** Writes `chunk`, in pieces of WRITE_PROGRESS_BYTES when larger, each credited once taken. */
    #writeInPieces(chunk: unknown, encoding: BufferEncoding | undefined, callback: WriteCallback | undefined): boolean {
      const pieces = piecesOf(chunk, encoding);
      if (!pieces) {
        // Credited only while watched: a write before that, if still queued as the watch starts,
        // is under 64 KiB, which progress never needs. A string's length, not its bytes: counting
        // them would read it once more, and fewer is safe.
        if (!this.#check) return super.write(chunk, encoding as BufferEncoding, callback);
        const size = typeof chunk === 'string' || chunk instanceof Uint8Array ? chunk.length : 0;
        return super.write(chunk, encoding as BufferEncoding, this.#credit(size, callback));
      }
      let flowing = true;
      // The caller's callback goes with the last piece.
      for (const [index, piece] of pieces.entries()) flowing = super.write(piece, this.#credit(piece.length, index === pieces.length - 1 ? callback : undefined));
      return flowing;
    }

    #credit(bytes: number, callback: WriteCallback | undefined): WriteCallback {
      return (this.#progress ??= new Progress(timeoutMs)).credit(bytes, callback);
    }

    #watch(): void {
      if (this.#check) return;
      (this.#progress ??= new Progress(timeoutMs)).restart(performance.now());
      this.#check = setTimeout(() => this.#checkProgress(), checkEveryMs).unref();
    }

    #checkProgress(): void {
      const socket = this.socket;
      if (this.destroyed || socket?.destroyed) return;
      if (this.writableLength === 0) {
        // Everything queued has been taken: watched again at the next write that queues bytes.
        this.#check = undefined;
        return;
      }
      // Without a socket the answer waits behind another on its connection, which is watched itself.
      if (!socket) {
        this.#progress!.restart(performance.now());
      } else if (this.#progress!.passed(performance.now())) {
        onCut(this.writableLength);
        // A reset rather than a close: the kernel drops the bytes still queued for this client at
        // once, instead of holding the connection open to deliver them to a client that does not read.
        socket.resetAndDestroy();
        return;
      }
      this.#check!.refresh();
    }
  };
}
