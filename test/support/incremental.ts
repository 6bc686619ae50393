// Reads a streamed GraphQL answer (multipart/mixed or text/event-stream, as Yoga sends @defer's
// payloads) one payload at a time, as each arrives.
import type { GraphQLFormattedError } from 'graphql';

export interface IncrementalPayload {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
  incremental?: { data?: Record<string, unknown> | null; path: (string | number)[]; label?: string; errors?: GraphQLFormattedError[] }[];
  hasNext?: boolean;
}

export async function* payloadsOf(response: Response): AsyncGenerator<IncrementalPayload> {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body) throw new Error('the response has no body');
  if (type.startsWith('multipart/mixed')) yield* multipartPayloads(response.body);
  else if (type.startsWith('text/event-stream')) yield* eventStreamPayloads(response.body);
  else throw new Error(`not a streamed answer: ${type}`);
}

/** Parts of `Content-Length` bytes each (the body may hold multi-byte characters). */
async function* multipartPayloads(body: ReadableStream<Uint8Array>): AsyncGenerator<IncrementalPayload> {
  let buffer = Buffer.alloc(0);
  for await (const chunk of chunksOf(body)) {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const header = /Content-Length: (\d+)\r\n\r\n/i.exec(buffer.toString('latin1'));
      if (!header) break;
      const start = header.index + header[0].length;
      const length = Number(header[1]);
      if (buffer.length < start + length) break;
      yield JSON.parse(buffer.subarray(start, start + length).toString('utf8')) as IncrementalPayload;
      buffer = buffer.subarray(start + length);
    }
  }
}

async function* eventStreamPayloads(body: ReadableStream<Uint8Array>): AsyncGenerator<IncrementalPayload> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of chunksOf(body)) {
    text += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) !== -1) {
      const event = text.slice(0, end);
      text = text.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (/^event: next$/m.test(event) && data) yield JSON.parse(data) as IncrementalPayload;
    }
  }
}

async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
