// A streamed (@defer) answer's end, as the log line and the operation span hear it: once, with the
// results of every payload, whether the stream is read to its end, left by the client part way, or
// never read at all (then only the node response's close tells).
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { watchStream } from '../../src/observability/operation-results.js';

const payloads = [
  { data: { a: 1 }, hasNext: true },
  { incremental: [{ data: { b: 2 }, errors: [{ extensions: { code: 'UPSTREAM_ERROR' } }] }], hasNext: false },
];

async function* source() {
  yield* payloads;
}

function watched() {
  const response = new EventEmitter();
  const ends: unknown[][] = [];
  const stream = watchStream(source(), (results) => ends.push(results), response as unknown as ServerResponse);
  return { response, ends, stream };
}

describe('watchStream', () => {
  it('passes every payload through and ends once, with each payload and deferred result, when read to the end', async () => {
    const { response, ends, stream } = watched();
    const read: unknown[] = [];
    for await (const payload of stream) read.push(payload);
    expect(read).toEqual(payloads);
    response.emit('close');
    expect(ends).toEqual([[payloads[0], payloads[1], payloads[1]!.incremental![0]]]);
    expect(response.listenerCount('close')).toBe(0);
  });

  it('ends once when the client leaves part way, with what was sent', async () => {
    const { response, ends, stream } = watched();
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return!();
    response.emit('close');
    expect(ends).toEqual([[payloads[0]]]);
  });

  it('ends on the response closing when the stream is never read', () => {
    const { response, ends } = watched();
    expect(ends).toEqual([]);
    response.emit('close');
    response.emit('close');
    expect(ends).toEqual([[]]);
  });
});
