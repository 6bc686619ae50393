// Reads a GraphQL request's body before Yoga, and before the request takes an operation slot
// (shedding.ts): a body over MAX_BODY_BYTES is answered HTTP 413 and never buffered past the cap,
// and a client that sends its body slowly holds no slot meanwhile, only its connection, until
// HTTP_REQUEST_TIMEOUT_MS (Node's requestTimeout answers it 408).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorAnswerBody, OperationLimitError } from '../errors.js';
import type { LoadShedding, Refusal } from './shedding.js';
import { LINGER_MS } from '../tunables.js';

/**
 * A read body as Yoga's node adapter takes it in place of the request stream: a Blob of the bytes,
 * not the Buffer itself. The adapter asks whether a pre-read body is empty with
 * `Object.keys(body).length`, which for a Buffer turns the index of every byte into a string: the
 * most a fee mutation spent on any one thing. A Blob answers from its few fields, and the fetch
 * ponyfill reads it through `buffer()`, which hands over the bytes without a copy. `stream()`
 * streams them in the ReadableStream of Yoga's fetch API, as its multipart parser reads them.
 */
export class ReadBody implements Blob {
  readonly type = '';

  constructor(
    private readonly content: Buffer<ArrayBuffer>,
    private readonly Stream: typeof ReadableStream,
  ) {}

  get [Symbol.toStringTag](): string {
    return 'Blob';
  }

  get size(): number {
    return this.content.length;
  }

  buffer(): Promise<Buffer<ArrayBuffer>> {
    return Promise.resolve(this.content);
  }

  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return Promise.resolve(new Uint8Array(this.content));
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes().then((bytes) => bytes.buffer);
  }

  text(): Promise<string> {
    return Promise.resolve(this.content.toString('utf8'));
  }

  slice(start?: number, end?: number, contentType?: string): Blob {
    return new Blob([this.content.subarray(start, end)], { type: contentType });
  }

  stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const { content } = this;
    return new this.Stream({
      start(controller) {
        controller.enqueue(content);
        controller.close();
      },
    });
  }
}

/**
 * Reads the body of a POST whole and hands it to Yoga's node adapter as `req.body` (a ReadBody
 * whose stream is a `Stream`), which the adapter uses in place of the stream, and returns true;
 * GET and HEAD have none. A body over
 * `maxBytes`, declared or streamed (chunked), is answered 413 here; a body the memory budget of
 * bodies still arriving (`shedding.reserveBody`) cannot take is answered 503; both return false.
 * Returns false without answering when the client went away mid-body.
 */
export async function receiveRequestBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  shedding: LoadShedding,
  Stream: typeof ReadableStream,
  /** The header fields every answer of the caller carries (its budget, http/node-server.ts). */
  fieldsOf: () => Promise<OutgoingHttpHeaders>,
): Promise<boolean> {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    refuseMidBody(req, res, tooLarge(maxBytes), fieldsOf);
    return false;
  }
  let reserved = 0;
  const body = await new Promise<Buffer<ArrayBuffer> | 'too large' | 'no room' | 'aborted'>((resolve) => {
    const chunks: Buffer<ArrayBuffer>[] = [];
    let size = 0;
    const stop = (outcome: 'too large' | 'no room') => {
      // Stop keeping it without destroying the request: destroying it would cut the answer.
      req.off('data', onData);
      req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer<ArrayBuffer>) => {
      size += chunk.length;
      if (size > maxBytes) return stop('too large');
      if (!shedding.reserveBody(chunk.length)) return stop('no room');
      reserved += chunk.length;
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', () => resolve('aborted'));
    req.once('aborted', () => resolve('aborted'));
  });
  shedding.releaseBody(reserved);
  if (body === 'too large' || body === 'no room') {
    refuseMidBody(req, res, body === 'too large' ? tooLarge(maxBytes) : shedding.refuseBody(), fieldsOf);
    return false;
  }
  if (body === 'aborted') {
    res.destroy();
    return false;
  }
  (req as IncomingMessage & { body?: ReadBody }).body = new ReadBody(body, Stream);
  return true;
}

function tooLarge(maxBytes: number): Refusal {
  const error = new OperationLimitError('bodyBytes', `The request body is larger than ${maxBytes} bytes, the most this service accepts.`, maxBytes);
  return { status: 413, text: errorAnswerBody(error), headers: {} };
}

/**
 * Answers a request whose body is not read (413, or 503 when the budget of bodies has no room) while
 * its client may still be sending it. The whole answer goes out now; the response ends (and the
 * connection closes) once the rest of the body has been read and dropped, or after LINGER_MS,
 * whichever comes first: a client that keeps sending, or stops mid-body, does not hold the
 * connection until the request timeout.
 */
function refuseMidBody(req: IncomingMessage, res: ServerResponse, refusal: Refusal, fieldsOf: () => Promise<OutgoingHttpHeaders>): void {
  void fieldsOf().then((fields) => writeMidBody(req, res, refusal, fields));
}

function writeMidBody(req: IncomingMessage, res: ServerResponse, { status, text, headers }: Refusal, fields: OutgoingHttpHeaders): void {
  res.writeHead(status, {
    ...fields,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  res.write(text);
  const finish = () => {
    clearTimeout(lingering);
    if (!res.writableEnded) res.end();
  };
  const lingering = setTimeout(finish, LINGER_MS);
  req.once('end', finish);
  req.once('error', finish);
  res.once('close', () => clearTimeout(lingering));
  req.resume();
}
