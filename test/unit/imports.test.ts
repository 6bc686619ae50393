// No import cycles in src/: between modules, and between the folders that hold them (a folder is
// one domain or layer; two that import each other are one tangle). Type-only imports count: they
// tie the modules together for a reader as much as any other. And the simulator stays apart.
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));

/** src/generated/ is codegen output that refers back to the context type by design (`contextType`). */
const GENERATED = 'generated/';

/** The folder a module belongs to (`partner/`), or the module itself for the loose files of src/. */
const unitOf = (module: string) => (module.includes('/') ? `${module.slice(0, module.indexOf('/'))}/` : module);

/** Every cycle of a directed graph, each once, as the nodes along it (Johnson-style walk, small graphs). */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const cycles = new Map<string, string[]>();
  const walk = (start: string, node: string, path: string[]) => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const key = [...path].sort().join(' ');
        if (!cycles.has(key)) cycles.set(key, [...path, start]);
      } else if (!path.includes(next) && next > start) {
        walk(start, next, [...path, next]);
      }
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return [...cycles.values()];
}

let modules: Record<string, string[]>;
let moduleCycles: string[][];
beforeAll(async () => {
  const { output } = await cruise(
    ['src'],
    {
      baseDir: ROOT,
      // Type-only imports count (see above): read the TypeScript before it is compiled away.
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      tsConfig: { fileName: TSCONFIG },
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
    },
    {},
    { tsConfig: extractTSConfig(TSCONFIG) },
  );
  const result = output as ICruiseResult;
  const local = (path: string) => (path.startsWith('src/') ? path.slice('src/'.length) : undefined);
  modules = Object.fromEntries(
    result.modules.flatMap((module) => {
      const source = local(module.source);
      if (source === undefined) return [];
      const imports = module.dependencies.flatMap((dependency) => local(dependency.resolved) ?? []);
      return [[source, [...new Set(imports)].sort()]];
    }),
  );
  // One violation per edge on a cycle: each cycle once, whichever edge reported it.
  const cycles = new Map<string, string[]>();
  for (const violation of result.summary.violations) {
    const along = [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].map((path) => local(path) ?? path);
    cycles.set([...new Set(along)].sort().join(' '), along);
  }
  moduleCycles = [...cycles.values()];
}, 60_000);

describe('imports in src/', () => {
  it('reads every module of src/ and its imports', () => {
    expect(Object.keys(modules)).toEqual(expect.arrayContaining(['main.ts', 'server.ts', 'partner/index.ts', 'inventory/paging.ts']));
    expect(modules['server.ts']).toEqual(expect.arrayContaining(['context.ts', 'partner/index.ts']));
  });

  it('has no cycle between modules', () => {
    expect(moduleCycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('has no cycle between folders', () => {
    const folders = new Map<string, Set<string>>();
    for (const [module, imports] of Object.entries(modules)) {
      for (const imported of imports) {
        const [from, to] = [unitOf(module), unitOf(imported)];
        if (from === to || from === GENERATED || to === GENERATED) continue;
        if (!folders.has(from)) folders.set(from, new Set());
        folders.get(from)!.add(to);
      }
    }
    // Named with the imports that close each cycle, so that the report says what to untie.
    const report = cyclesOf(folders).map((cycle) =>
      cycle
        .slice(0, -1)
        .map((from, index) => {
          const to = cycle[index + 1]!;
          const through = Object.entries(modules).flatMap(([module, imports]) =>
            unitOf(module) === from ? imports.filter((imported) => unitOf(imported) === to).map((imported) => `${module} -> ${imported}`) : [],
          );
          return `${from} -> ${to} (${through.join(', ')})`;
        })
        .join('; '),
    );
    expect(report).toEqual([]);
  });

  it('keeps the simulator apart: only main.ts imports it, and it has wire types of its own', () => {
    const importers = Object.entries(modules)
      .filter(([module, imports]) => !module.startsWith('simulator/') && imports.some((imported) => imported.startsWith('simulator/')))
      .map(([module]) => module);
    expect(importers).toEqual(['main.ts']);
    const simulatorImports = Object.entries(modules)
      .filter(([module]) => module.startsWith('simulator/'))
      .flatMap(([, imports]) => imports.filter((imported) => !imported.startsWith('simulator/')));
    expect(simulatorImports).toEqual([]);
  });
});
