// The kept encoding of a cached answer's data, closed with each answer's own bytes as they are:
// Node's zlib (the reference brotli and zlib decoders browsers and curl use) reads back the data
// and the bytes after it, whatever their length, in br and gzip.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeEncoding, encodeOpen, type Encoding } from '../../src/plugins/compression-codec.js';

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;
const noCount = { once: true, onCompression: () => {} };

describe.each(['br', 'gzip'] as const)('an open %s encoding, closed with bytes as they are', (encoding: Encoding) => {
  it('decodes to the data and the bytes after it, for any of both', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 5000 }), fc.string({ unit: 'binary', maxLength: 300 }), async (data, own) => {
        const shared = Buffer.from(data);
        const open = await encodeOpen(encoding, shared, noCount)!;
        const rest = Buffer.from(own);
        expect(decode[encoding](closeEncoding(open, rest)).equals(Buffer.concat([shared, rest]))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('takes own bytes longer than one stored block or meta-block (64 KiB)', async () => {
    const shared = Buffer.from(JSON.stringify({ data: { text: 'x'.repeat(200_000) } }).slice(0, -1));
    const open = await encodeOpen(encoding, shared, noCount)!;
    const rest = Buffer.from(`,"extensions":${JSON.stringify({ long: 'é'.repeat(70_000) })}}`);
    const whole = decode[encoding](closeEncoding(open, rest));
    expect(whole.equals(Buffer.concat([shared, rest]))).toBe(true);
    expect(closeEncoding(open, Buffer.alloc(0)).length).toBeLessThan(open.bytes.length + 16);
  });
});
