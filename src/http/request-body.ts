// Caps request bodies at MAX_BODY_BYTES before Yoga reads them: a declared or streamed (chunked)
// body over the cap is answered HTTP 413 and never buffered past the cap.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../errors.js';
import { sendJson } from './send-json.js';

/**
 * Reads the body of a request that has one, up to `maxBytes`, and hands it to Yoga's node adapter
 * as `req.body` (which it uses in place of the stream). Answers 413 itself and returns false when
 * the body is too large; returns false without answering when the client went away mid-body.
 */
export async function acceptRequestBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<boolean> {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    refuseTooLarge(res, maxBytes);
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
      // Stop reading without destroying the request: destroying it would cut the 413 answer.
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
    refuseTooLarge(res, maxBytes);
    return false;
  }
  if (body === 'aborted') {
    res.destroy();
    return false;
  }
  (req as IncomingMessage & { body?: Buffer }).body = body;
  return true;
}

function refuseTooLarge(res: ServerResponse, maxBytes: number): void {
  const message = `The request body is larger than ${maxBytes} bytes, the most this service accepts.`;
  const extensions = { code: ErrorCode.OPERATION_LIMIT_EXCEEDED, limit: 'bodyBytes', maximum: maxBytes };
  // The rest of the body is not read: the connection closes after this answer.
  sendJson(res, 413, { errors: [{ message, extensions }] }, { connection: 'close' });
}
