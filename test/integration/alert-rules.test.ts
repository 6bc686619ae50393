// The alert and recording rules of ops/prometheus/ as promtool sees them: they load, their unit
// tests (ops/prometheus/tests/) pass, every alert has a unit test that shows it firing and one that
// shows it not firing, and every alert's runbook_url names a section of docs/operations.md.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ruleFiles } from '../../src/federation/prometheus.js';
import { anchorsOf } from '../support/markdown.js';
import { promtool } from '../support/prometheus.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TESTS_DIR = join(ROOT, 'ops/prometheus/tests');
const RULE_FILES = ruleFiles();
const TEST_FILES = readdirSync(TESTS_DIR)
  .filter((name) => name.endsWith('.yml'))
  .sort()
  .map((name) => join(TESTS_DIR, name));
const read = (file: string) => readFileSync(file, 'utf8');

/** The alerts of a rule file, with their runbook_url; and how many rules of either kind it has. */
function rulesIn(file: string): { alerts: { name: string; runbook: string | undefined }[]; count: number } {
  const text = read(file);
  const blocks = text.split(/^\s*- (?=alert:|record:)/m).slice(1);
  const alerts = blocks
    .filter((block) => block.startsWith('alert:'))
    .map((block) => ({ name: /^alert: (\S+)/.exec(block)![1]!, runbook: /^\s+runbook_url: (\S+)$/m.exec(block)?.[1] }));
  return { alerts, count: blocks.length };
}

/** The alert_rule_test cases of the unit tests: which alert, and whether it expects it firing. */
function casesIn(file: string): { alertname: string; firing: boolean }[] {
  return [...read(file).matchAll(/alertname: (\S+)\n\s+exp_alerts:( \[\])?/g)].map((match) => ({ alertname: match[1]!, firing: match[2] === undefined }));
}

describe('the Prometheus rules of ops/prometheus/', () => {
  it('pass promtool check rules, and every rule of them is one this suite reads', () => {
    const { status, output } = promtool('check', 'rules', ...RULE_FILES);
    expect(output).not.toMatch(/FAILED/);
    expect(status).toBe(0);
    // promtool's count of each file's rules is the count read here: no rule escapes the checks below.
    const counted = [...output.matchAll(/SUCCESS: (\d+) rules found/g)].map((match) => Number(match[1]));
    expect(counted).toEqual(RULE_FILES.map((file) => rulesIn(file).count));
  });

  // promtool works a core for seconds: beside other test files' forks it can take longer than the
  // default timeout, so the test is bounded by promtool's own 120 s (support/prometheus.ts) instead.
  it('pass their promtool unit tests', () => {
    const { status, output } = promtool('test', 'rules', ...TEST_FILES);
    expect(output).not.toMatch(/FAILED/);
    expect(status).toBe(0);
  }, 120_000);

  it('each alert has a unit test showing it firing and one showing it not firing', () => {
    const cases = TEST_FILES.flatMap(casesIn);
    const alerts = RULE_FILES.flatMap((file) => rulesIn(file).alerts.map((alert) => alert.name));
    expect(alerts.length).toBeGreaterThan(0);
    const untested = alerts.flatMap((name) => {
      const of = cases.filter((each) => each.alertname === name);
      return [
        ...(of.some((each) => each.firing) ? [] : [`${name}: no case where it fires`]),
        ...(of.some((each) => !each.firing) ? [] : [`${name}: no case where it does not fire`]),
      ];
    });
    expect(untested).toEqual([]);
    // And no test names an alert that does not exist (a renamed alert leaves its tests behind).
    expect(cases.map((each) => each.alertname).filter((name) => !alerts.includes(name))).toEqual([]);
  });

  it("each alert's runbook_url is a section of docs/operations.md", () => {
    const anchors = anchorsOf(read(join(ROOT, 'docs/operations.md')));
    const alerts = RULE_FILES.flatMap((file) => rulesIn(file).alerts.map((alert) => ({ ...alert, file: relative(ROOT, file) })));
    const broken = alerts.filter(({ name, runbook }) => runbook !== `docs/operations.md#${name.toLowerCase()}` || !anchors.includes(name.toLowerCase()));
    expect(broken).toEqual([]);
  });
});
