// The PromQL of ops/: every expression of the Grafana dashboard and of the rule files, and the
// metric names an expression reads. No PromQL parser is published for Node, so names are found by a
// tokenizer: strings, label matchers, ranges and label lists are taken out, and what is left of the
// identifiers, less functions (an identifier before `(`) and keywords, are metric names.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ruleFiles } from '../../src/federation/prometheus.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DASHBOARD = `${ROOT}ops/grafana/tradegraph.json`;

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

/** The metric names (recording rules' included) an expression selects, in order of first appearance. */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = [...stripped.matchAll(/(?<![\w:.$])([A-Za-z_:][\w:]*)(?![\w:]|\s*\()/g)]
    .map((match) => match[1]!)
    .filter((name) => !KEYWORDS.has(name.toLowerCase()));
  return [...new Set(names)];
}

export interface Expression {
  where: string;
  expr: string;
}

interface Panel {
  title?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

/** Every query of the dashboard: its panels' targets, and its template variables' label_values metric. */
export function dashboardExpressions(): Expression[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: Panel[];
    templating: { list: { name: string; definition?: string }[] };
  };
  const ofPanel = (panel: Panel): Expression[] => [
    ...(panel.targets ?? []).flatMap((target) => (target.expr ? [{ where: `panel '${panel.title}'`, expr: target.expr }] : [])),
    ...(panel.panels ?? []).flatMap(ofPanel),
  ];
  const variables = dashboard.templating.list.flatMap((variable) => {
    // label_values(metric, label): the label is no metric name.
    const metric = /^label_values\(\s*([^,]+),/.exec(variable.definition ?? '')?.[1];
    return metric ? [{ where: `variable '${variable.name}'`, expr: metric }] : [];
  });
  return [...dashboard.panels.flatMap(ofPanel), ...variables];
}

/** Every rule's expression, as written in the rule files (block scalars or one line). */
export function ruleExpressions(): Expression[] {
  return ruleFiles().flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^(\s*)expr: (?:\|\n((?:\1\s+\S.*\n?)+)|(.+)\n)/gm)].map((match) => ({
      where: file.slice(ROOT.length),
      expr: (match[2] ?? match[3]!).trim(),
    })),
  );
}

/** The recording rules' names, which expressions may read as they read a metric. */
export function recordedNames(): string[] {
  return ruleFiles().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/- record: (\S+)/g)].map((match) => match[1]!));
}
