// The compression engine the compression plugin drives: br and gzip at a level chosen by size, on
// libuv's thread pool, at most COMPRESSIONS_AT_ONCE at a time; and the encoded form of a cached
// answer's data, made once and kept, to which each answer's own few bytes (its extensions.cost) are
// appended as they are, without compressing the data again (docs/decisions/compression.md).
import { promisify } from 'node:util';
import { brotliCompress, constants, crc32, deflateRaw } from 'node:zlib';
import { BROTLI_QUALITY_BY_SIZE, COMPRESSIONS_AT_ONCE, GZIP_LEVEL_BY_SIZE } from '../tunables.js';

// zlib's callback API, run on libuv's thread pool; wrapped once, not for each answer.
const brotliAsync = promisify(brotliCompress);
const deflateRawAsync = promisify(deflateRaw);

export type Encoding = 'br' | 'gzip';

/** The level for a body of this many bytes: the first step whose bound it is within. */
function levelFor(steps: readonly (readonly [maxBytes: number, level: number])[], bytes: number): number {
  return (steps.find(([maxBytes]) => bytes <= maxBytes) ?? steps.at(-1)!)[1];
}

/**
 * A body compressed so that more bytes can follow it: the encoder's output up to a flush, which
 * ends on a byte boundary without closing the stream, and what the trailer needs of the input.
 */
export interface OpenEncoding {
  encoding: Encoding;
  /** br: the stream up to the flush; gzip: the header, then the raw deflate data up to a sync flush. */
  bytes: Buffer;
  /** The input's length in bytes (gzip's ISIZE counts it). */
  inputBytes: number;
  /** The input's CRC-32 (gzip's trailer); 0 for br, which has none. */
  crc: number;
}

/** gzip's member header (RFC 1952 2.3): deflate, no flags, no time, no extra field, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * Encodes `body` and leaves the stream open, on the thread pool. `once`: the encoding is kept and
 * serves many answers, so it gets the level of the smallest bodies whatever its size.
 */
async function openEncoding(encoding: Encoding, body: Buffer, once: boolean): Promise<OpenEncoding> {
  const size = once ? 0 : body.length;
  if (encoding === 'br') {
    const bytes = await brotliAsync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: levelFor(BROTLI_QUALITY_BY_SIZE, size), [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      // A flush, not a finish: the output ends on a byte boundary (an empty metadata block pads
      // it) and the stream has no last meta-block yet.
      finishFlush: constants.BROTLI_OPERATION_FLUSH,
    });
    return { encoding, bytes, inputBytes: body.length, crc: 0 };
  }
  const deflated = await deflateRawAsync(body, { level: levelFor(GZIP_LEVEL_BY_SIZE, size), finishFlush: constants.Z_SYNC_FLUSH });
  return { encoding, bytes: Buffer.concat([GZIP_HEADER, deflated]), inputBytes: body.length, crc: crc32(body) };
}

/** The longest stored block deflate has (RFC 1951 3.2.4), and the longest meta-block of 4 nibbles brotli has (RFC 7932 9.2). */
const GZIP_STORED_MAX = 0xffff;
const BROTLI_UNCOMPRESSED_MAX = 0x10000;

/**
 * The whole encoded answer: `open` (the encoding of its first part), `rest` as it is, and the
 * stream's end. gzip: `rest` in stored blocks, the last one final, then the CRC-32 and length of
 * the whole input (RFC 1951 3.2.4, RFC 1952 2.3.1). br: `rest` in uncompressed meta-blocks, then
 * an empty last meta-block (RFC 7932 9.2). Both follow a flush, which leaves the stream on a byte
 * boundary, as these blocks begin.
 */
export function closeEncoding(open: OpenEncoding, rest: Buffer): Buffer<ArrayBuffer> {
  const parts: Buffer[] = [open.bytes];
  if (open.encoding === 'gzip') {
    let offset = 0;
    do {
      const piece = rest.subarray(offset, offset + GZIP_STORED_MAX);
      offset += piece.length;
      const header = Buffer.alloc(5);
      // BFINAL on the last piece, BTYPE 00 (stored), the rest of the byte padding.
      header[0] = offset >= rest.length ? 1 : 0;
      header.writeUInt16LE(piece.length, 1);
      header.writeUInt16LE(~piece.length & 0xffff, 3);
      parts.push(header, piece);
    } while (offset < rest.length);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(rest, open.crc), 0);
    trailer.writeUInt32LE((open.inputBytes + rest.length) % 2 ** 32, 4);
    parts.push(trailer);
  } else {
    for (let offset = 0; offset < rest.length; offset += BROTLI_UNCOMPRESSED_MAX) {
      const piece = rest.subarray(offset, offset + BROTLI_UNCOMPRESSED_MAX);
      // ISLAST 0, MNIBBLES 0 (four nibbles), MLEN - 1 in 16 bits, ISUNCOMPRESSED 1: 20 bits, padded to 3 bytes.
      const header = (piece.length - 1) * 8 + 2 ** 19;
      parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, header >> 16]), piece);
    }
    // ISLAST 1, ISLASTEMPTY 1.
    parts.push(Buffer.from([3]));
  }
  return Buffer.concat(parts);
}

/** The compressions under way; past COMPRESSIONS_AT_ONCE, an answer goes out as it is. */
let underWay = 0;

/**
 * `body` encoded, open for more bytes; null when COMPRESSIONS_AT_ONCE are already under way. Not
 * queued: a waiting answer would hold its whole body in memory meanwhile and wait for work that
 * shortens none of it, while sent as it is it leaves now and holds a slot of the thread pool, which
 * DNS lookups and file reads share, for no one.
 */
export function encodeOpen(
  encoding: Encoding,
  body: Buffer,
  { once, onCompression }: { once: boolean; onCompression: (encoding: Encoding) => void },
): Promise<OpenEncoding> | null {
  if (underWay >= COMPRESSIONS_AT_ONCE) return null;
  underWay += 1;
  onCompression(encoding);
  return openEncoding(encoding, body, once).finally(() => (underWay -= 1));
}
