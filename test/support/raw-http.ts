// One request over node:http, which neither decompresses nor caches: the answer's status, headers
// and body as they came over the wire, for tests of compression and conditional requests.
import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawRequest(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks) }));
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
