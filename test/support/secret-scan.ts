// Vitest global setup: every testkit of the run archives its service's log lines with the secrets
// it used (bearer tokens sent, the merchant app-key); at the end of the run this fails the run if
// any log line of any test file holds any of those secrets.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** What one testkit leaves in the archive when it closes. */
export interface LogArchiveEntry {
  secrets: string[];
  logs: string[];
}

/** Shorter values are too likely to occur by chance (an appId, a word) to count as a leak. */
export const MIN_SECRET_LENGTH = 8;

declare module 'vitest' {
  export interface ProvidedContext {
    logArchiveDir: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'tradegraph-test-logs-'));
  project.provide('logArchiveDir', dir);
  return () => {
    const entries = readdirSync(dir).map(
      (file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as LogArchiveEntry,
    );
    rmSync(dir, { recursive: true, force: true });
    const secrets = [...new Set(entries.flatMap((entry) => entry.secrets))].filter(
      (secret) => secret.length >= MIN_SECRET_LENGTH,
    );
    const lines = entries.flatMap((entry) => entry.logs);
    const leaks = lines.filter((line) => secrets.some((secret) => line.includes(secret)));
    if (leaks.length > 0) {
      // Vitest reports an error thrown here but keeps the exit code; set it so the run fails.
      process.exitCode = 1;
      throw new Error(
        `${leaks.length} of ${lines.length} logged lines hold an access token or the app-key, e.g.:\n${leaks[0]}`,
      );
    }
    process.stdout.write(
      `secret scan: ${lines.length} log lines from ${entries.length} services hold none of ${secrets.length} secrets\n`,
    );
  };
}
