// Caps request bodies at MAX_BODY_BYTES before Yoga reads them: a declared or streamed (chunked)
// body over the cap is answered HTTP 413 and never buffered past the cap.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OperationLimitError } from '../errors.js';
import { errorBody } from './send-json.js';

/**
 * How long a refused body is still read, and discarded, after its 413 is written, as nginx's
 * lingering close does: closing with the client's bytes unread resets the connection, and a
 * client still sending then sees the reset instead of the answer.
 */
const LINGER_MS = 2_000;

/**
 * Lets a request through to Yoga when its body cannot pass `maxBytes`, and answers 413 itself (and
 * returns false) when it does. A declared length is checked at once, and Yoga's node adapter reads
 * that body itself: Node's parser never delivers more than the declared length. A body of unknown
 * length (chunked) is read here, counting, and handed to the adapter as `req.body`, which it uses
 * in place of the stream; returns false without answering when the client went away mid-body.
 */
export async function acceptRequestBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<boolean> {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared)) {
    if (declared <= maxBytes) return true;
    refuseTooLarge(req, res, maxBytes);
    return false;
  }
  const body = await new Promise<Buffer | 'too large' | 'aborted'>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // Stop keeping it without destroying the request: destroying it would cut the 413 answer.
      req.off('data', onData);
      req.pause();
      resolve('too large');
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => resolve('aborted'));
    req.once('aborted', () => resolve('aborted'));
  });
  if (body === 'too large') {
    refuseTooLarge(req, res, maxBytes);
    return false;
  }
  if (body === 'aborted') {
    res.destroy();
    return false;
  }
  (req as IncomingMessage & { body?: Buffer }).body = body;
  return true;
}

function refuseTooLarge(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const error = new OperationLimitError('bodyBytes', `The request body is larger than ${maxBytes} bytes, the most this service accepts.`, maxBytes);
  const text = errorBody(error);
  // The whole answer goes out now; the response ends (and the connection closes) once the rest of
  // the body has been read and dropped, or after LINGER_MS, whichever comes first.
  res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), connection: 'close' });
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
