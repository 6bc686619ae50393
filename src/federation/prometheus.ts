// Debian's Prometheus beside the fleet and in the tests: where it is (installed with apt-get when
// missing and this process may, as redis-server is), and a configuration that scrapes the service
// every second and evaluates the rules of ops/prometheus/ every second.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptInstall } from './apt.js';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';
/** The line Prometheus logs once it serves its API. */
export const PROMETHEUS_READY_LINE = 'Server is ready to receive web requests.';
/** The alert and recording rules of the repository. */
export const RULES_DIR = fileURLToPath(new URL('../../ops/prometheus/rules/', import.meta.url));

/** Prometheus and promtool (one Debian package), installed first when missing and root may; false when not there. */
export function ensurePrometheusPackage({ onInstall }: { onInstall?: () => void } = {}): boolean {
  const there = () => existsSync(PROMETHEUS) && existsSync(PROMTOOL);
  return there() || (aptInstall('prometheus', { onInstall, installArgs: ['--no-install-recommends'] }) && there());
}

/** The rule files of ops/prometheus/rules/, by absolute path. */
export function ruleFiles(dir = RULES_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yml'))
    .sort()
    .map((name) => join(dir, name));
}

export interface PrometheusSetup {
  /** `host:port` of each service to scrape, as job `tradegraph`. */
  targets: string[];
  ruleFiles: string[];
  /** Where the configuration and the TSDB go (a directory of its own). */
  dir: string;
  /** The loopback port its web API listens on. */
  port: number;
}

/** Writes the configuration into `dir`, and answers the arguments that start Prometheus on it. */
export function prometheusArgs({ targets, ruleFiles: rules, dir, port }: PrometheusSetup): string[] {
  // JSON's strings and lists are YAML's too: no YAML writer is needed for a file this small.
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    `rule_files: ${JSON.stringify(rules)}`,
    'scrape_configs:',
    '  - job_name: tradegraph',
    '    static_configs:',
    `      - targets: ${JSON.stringify(targets)}`,
    '',
  ].join('\n');
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, config);
  return [
    `--config.file=${configFile}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ];
}
