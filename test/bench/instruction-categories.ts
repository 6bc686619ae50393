// Splits a callgrind profile of one target (test/bench/instructions.sh) into categories of
// instructions per request: the partner body's JSON parsing and UTF-8 decoding (the same work in
// every target), V8's optimising compiler and garbage collector (which run on their own clocks, so
// their share varies between runs of the same build), and the rest. Prints one JSON object.
//
//   npx tsx test/bench/instruction-categories.ts <callgrind.out> <requests counted>
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * First match wins; names as callgrind_annotate prints them, `file:function [object]`, each
 * function's own instructions (not those of what it calls).
 *
 * The collector is every function of V8's heap that a collection runs: the scavenger and its root
 * visitors (a scavenge walks the roots, the startup and shared object caches among them, and that
 * walk costs more than copying the young objects that survive), marking, sweeping, evacuation and
 * the allocator's page bookkeeping. The functions the service's own code calls to allocate
 * (`Factory::`, `Builtins_Allocate*`) are not among them: that allocation is the request's work.
 */
const CATEGORIES: readonly (readonly [string, RegExp])[] = [
  ['json-parse', /JsonParser|JsonParse/],
  ['json-stringify', /JsonStringifier|JsonStringify/],
  ['utf8', /Utf8|utf8|unibrow/],
  ['string-table', /StringTable/],
  ['compiler', /compiler::|maglev::|Maglev|turboshaft::|Turboshaft|TurboFan|OptimizedCompilationJob|Compiler::/],
  [
    'gc',
    /Heap::|heap::|Scavenge|MarkCompact|Sweeper|Marking|Evacuat|GCTracer|MinorMarkSweep|cppgc::|MemoryAllocator|IterateObjectCache|IterateStartupObjectCache|IterateSharedHeapObjectCache|ClearStaleLeftTrimmedPointerVisitor/,
  ],
  ['builtins', /Builtins_/],
  ['jit-code', /^\?\?\?:0x|^0x[0-9a-f]+/],
  ['libuv', /\buv_|libuv/],
  ['node-native', /node::/],
  ['libc', /libc\.so|libc-|ld-linux|libm\.so|libstdc\+\+/],
  ['v8-other', /v8::|Runtime_|v8_/],
];

/** The category of one function, by its name as callgrind_annotate prints it. */
export function categoryOf(name: string): string {
  return CATEGORIES.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
}

export interface InstructionCategories {
  instructionsPerRequest: number;
  /** What the gate counts one request at a time: every instruction but the compiler's and the collector's. */
  withoutCompilerAndGc: number;
  /** What the gate counts with requests in flight together: the collector's work included. */
  withoutCompiler: number;
  byCategory: Record<string, number>;
}

/** Instructions per request by category, from `callgrind_annotate --inclusive=no`'s output. */
export function categorise(annotated: string, counted: number): InstructionCategories {
  const totals = new Map<string, number>();
  let all = 0;
  for (const line of annotated.split('\n')) {
    // "1,234,567  ???:v8::internal::JsonParser<...>::ParseJsonValue() [/usr/bin/node]"
    const match = /^\s*([\d,]+)\s+(\S.*)$/.exec(line);
    if (!match || /PROGRAM TOTALS|^Ir\b/.test(match[2]!)) continue;
    const count = Number(match[1]!.replaceAll(',', ''));
    const category = categoryOf(match[2]!);
    totals.set(category, (totals.get(category) ?? 0) + count);
    all += count;
  }
  const perRequest = (value: number) => Math.round(value / counted);
  return {
    instructionsPerRequest: perRequest(all),
    withoutCompilerAndGc: perRequest(all - (totals.get('compiler') ?? 0) - (totals.get('gc') ?? 0)),
    withoutCompiler: perRequest(all - (totals.get('compiler') ?? 0)),
    byCategory: Object.fromEntries([...totals].sort((a, b) => b[1] - a[1]).map(([name, value]) => [name, perRequest(value)])),
  };
}

function main(): void {
  const [file, counted] = process.argv.slice(2);
  if (!file || !counted || !(Number(counted) > 0)) {
    console.error('usage: instruction-categories.ts <callgrind.out> <requests counted>');
    process.exit(2);
  }
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', '--show-percs=no', '--auto=no', file], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  console.log(JSON.stringify(categorise(annotated, Number(counted))));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
