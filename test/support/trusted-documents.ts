// The repo's trusted-documents manifest (test/generated/trusted/persisted-documents.json, from `npm run
// codegen`), the hash each typed document carries, and hand-made manifests for the cases a
// generated one never holds.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTrustedDocuments, type TrustedDocumentsManifest } from '../../src/config.js';

export const MANIFEST_PATH = fileURLToPath(new URL('../generated/trusted/persisted-documents.json', import.meta.url));

export const manifest = (): TrustedDocumentsManifest => readTrustedDocuments(MANIFEST_PATH);

/** The sha256 the client preset put on a typed document (`__meta__.hash`). */
export function documentIdOf(document: object): string {
  const hash = (document as { __meta__?: { hash?: unknown } }).__meta__?.hash;
  if (typeof hash !== 'string') throw new Error('the typed document carries no __meta__.hash: is persistedDocuments on in codegen.ts?');
  return hash;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A manifest of the given document texts, each under its own sha256. */
export const manifestOf = (...texts: string[]): TrustedDocumentsManifest =>
  Object.fromEntries(texts.map((text) => [sha256(text), text]));

/** Writes a manifest file (any text) to a fresh temporary directory and answers its path. */
export function writeManifestFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tradegraph-manifest-')), 'persisted-documents.json');
  writeFileSync(path, text);
  return path;
}
