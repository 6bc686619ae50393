// Splits a callgrind profile of one target (test/bench/instructions.sh) into categories of
// instructions per request: the partner body's JSON parsing and UTF-8 decoding (the same work in
// every target), V8's optimising compiler and garbage collector (which run on their own clocks, so
// their share varies between runs of the same build), and the rest. Prints one JSON object.
//
//   npx tsx test/bench/instruction-categories.ts <callgrind.out> <requests counted>
import { execFileSync } from 'node:child_process';

/** First match wins; names as callgrind_annotate prints them, `file:function [object]`. */
const CATEGORIES: [string, RegExp][] = [
  ['json-parse', /JsonParser|JsonParse/],
  ['json-stringify', /JsonStringifier|JsonStringify/],
  ['utf8', /Utf8|utf8|unibrow/],
  ['string-table', /StringTable/],
  ['compiler', /compiler::|maglev::|Maglev|turboshaft::|Turboshaft|TurboFan|OptimizedCompilationJob|Compiler::/],
  ['gc', /Heap::|heap::|Scavenger|MarkCompact|Sweeper|Marking|Evacuat|GCTracer|MinorMarkSweep|cppgc::|MemoryAllocator/],
  ['builtins', /Builtins_/],
  ['jit-code', /^\?\?\?:0x|^0x[0-9a-f]+/],
  ['libuv', /\buv_|libuv/],
  ['node-native', /node::/],
  ['libc', /libc\.so|libc-|ld-linux|libm\.so|libstdc\+\+/],
  ['v8-other', /v8::|Runtime_|v8_/],
];

const [file, counted] = process.argv.slice(2);
if (!file || !counted || !(Number(counted) > 0)) {
  console.error('usage: instruction-categories.ts <callgrind.out> <requests counted>');
  process.exit(2);
}

const text = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', '--show-percs=no', '--auto=no', file], {
  encoding: 'utf8',
  maxBuffer: 512 * 1024 * 1024,
});
const totals = new Map<string, number>();
let all = 0;
for (const line of text.split('\n')) {
  // "1,234,567  ???:v8::internal::JsonParser<...>::ParseJsonValue() [/usr/bin/node]"
  const match = /^\s*([\d,]+)\s+(\S.*)$/.exec(line);
  if (!match || /PROGRAM TOTALS|^Ir\b/.test(match[2]!)) continue;
  const count = Number(match[1]!.replaceAll(',', ''));
  const name = match[2]!;
  const category = CATEGORIES.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
  totals.set(category, (totals.get(category) ?? 0) + count);
  all += count;
}
const perRequest = (value: number) => Math.round(value / Number(counted));
const byCategory = Object.fromEntries([...totals].sort((a, b) => b[1] - a[1]).map(([name, value]) => [name, perRequest(value)]));
const withoutCompilerAndGc = perRequest(all - (totals.get('compiler') ?? 0) - (totals.get('gc') ?? 0));
console.log(JSON.stringify({ instructionsPerRequest: perRequest(all), withoutCompilerAndGc, byCategory }));
