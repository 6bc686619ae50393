// Slow readers let go: an answer whose client stops reading it is cut once HTTP_WRITE_TIMEOUT_MS
// pass without any more of it leaving the process, so that its operation slot (shedding.ts counts
// it until the response's 'close') and the memory of its unsent bytes are freed for other clients.
import type { ServerResponse } from 'node:http';

/** Told of each answer cut, with the bytes it still had to send. */
export type AnswerCutListener = (pendingBytes: number) => void;

/**
 * The response class, given to createServer, that arms a write timeout on a response once it has
 * more bytes than its socket buffers at once (write() answers false, or end() leaves bytes queued):
 * a small answer, the usual case, costs no timer.
 *
 * The timeout is the socket's own (response.setTimeout), which Node restarts whenever the kernel
 * takes more of the answer: a client that keeps reading, however slowly, is not cut, as with
 * nginx's send_timeout. When it fires with nothing queued (a stream between two parts, or the
 * operation still being worked on), nothing is done: the operation's own deadline bounds that
 * time. Armed when bytes queue rather than as the request arrives, it also holds for streamed
 * answers (@defer), for which Yoga's node adapter clears the socket's timeout before it writes.
 *
 * `any[]`: TypeScript takes a class as a mixin's base only with a constructor of that type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function cutUnreadAnswers<Base extends new (...args: any[]) => ServerResponse>(Response: Base, timeoutMs: number, onCut: AnswerCutListener): Base {
  // One function for every response (`this` is the response), not a closure per request.
  function timedOut(this: ServerResponse): void {
    const socket = this.socket;
    if (!socket || socket.destroyed || socket.writableLength === 0) return;
    onCut(socket.writableLength);
    // A reset rather than a close: the kernel drops the bytes still queued for this client at once,
    // instead of holding the connection open to deliver them to a client that does not read.
    socket.resetAndDestroy();
  }
  return class UnreadAnswerCut extends Response {
    #armed = false;

    #armIfQueued(queued: boolean): void {
      if (!queued || this.#armed) return;
      this.#armed = true;
      this.setTimeout(timeoutMs, timedOut);
    }

    override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
      const flowing = super.write(chunk, encoding as BufferEncoding, callback as () => void);
      this.#armIfQueued(!flowing);
      return flowing;
    }

    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      super.end(chunk, encoding as BufferEncoding, callback as () => void);
      this.#armIfQueued((this.socket?.writableLength ?? 0) > 0);
      return this;
    }
  };
}
