// What bench:gate counts (test/bench/instruction-categories.ts): every instruction of the counted
// requests but V8's optimising compiler and its collector, read from callgrind_annotate's output.
import { describe, expect, it } from 'vitest';
import { categorise, categoryOf } from '../bench/instruction-categories.js';

const NODE = '[node_modules/node/bin/node]';

/** callgrind_annotate --inclusive=no output, as instruction-categories.ts reads it (300 requests' worth). */
const ANNOTATED = `--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
3,000,000  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir             file:function
--------------------------------------------------------------------------------
900,000  ???:0x000000001833e800 [???]
600,000  ???:v8::internal::JsonParser<unsigned short>::ParseJsonObject(v8::internal::Handle<v8::internal::Map>) ${NODE}
300,000  ???:v8::internal::(anonymous namespace)::IterateObjectCache(v8::internal::Isolate*, std::vector<v8::internal::Tagged<v8::internal::Object>, std::allocator<v8::internal::Tagged<v8::internal::Object> > >*, v8::internal::Root, v8::internal::RootVisitor*) ${NODE}
150,000  ???:v8::internal::RootScavengeVisitor::VisitRootPointer(v8::internal::Root, char const*, v8::internal::FullObjectSlot) ${NODE}
60,000  ???:heap::base::SlotCallbackResult v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot>(v8::internal::FullHeapObjectSlot, v8::internal::Tagged<v8::internal::HeapObject>) ${NODE}
30,000  ???:v8::internal::ClearStaleLeftTrimmedPointerVisitor::VisitRootPointers(v8::internal::Root, char const*, v8::internal::FullObjectSlot, v8::internal::FullObjectSlot) ${NODE}
240,000  ???:v8::internal::maglev::MaglevGraphBuilder::VisitSingleBytecode() ${NODE}
300,000  ???:v8::internal::Factory::AllocateRaw(int, v8::internal::AllocationType, v8::internal::AllocationAlignment, v8::internal::AllocationHint) ${NODE}
120,000  ???:Builtins_AllocateInYoungGeneration ${NODE}
300,000  ./string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:__memcpy_avx_unaligned_erms [/usr/lib/x86_64-linux-gnu/libc.so.6]
`;

describe('instruction categories', () => {
  it("counts a scavenge's walk of the roots, the object caches among them, as the collector's", () => {
    for (const name of [
      '???:v8::internal::(anonymous namespace)::IterateObjectCache(v8::internal::Isolate*) [node]',
      '???:v8::internal::SerializerDeserializer::IterateStartupObjectCache(v8::internal::Isolate*, v8::internal::RootVisitor*) [node]',
      '???:v8::internal::SerializerDeserializer::IterateSharedHeapObjectCache(v8::internal::Isolate*, v8::internal::RootVisitor*) [node]',
      '???:v8::internal::RootScavengeVisitor::VisitRootPointer(v8::internal::Root, char const*, v8::internal::FullObjectSlot) [node]',
      '???:v8::internal::ClearStaleLeftTrimmedPointerVisitor::VisitRootPointer(v8::internal::Root, char const*, v8::internal::FullObjectSlot) [node]',
      '???:v8::internal::Scavenger::Process(v8::JobDelegate*) [node]',
      '???:v8::internal::Heap::Scavenge() [node]',
    ]) {
      expect(categoryOf(name), name).toBe('gc');
    }
  });

  it("leaves the allocation a request's code asks for, and what it copies, to the request", () => {
    expect(categoryOf('???:v8::internal::Factory::AllocateRaw(int, v8::internal::AllocationType) [node]')).toBe('v8-other');
    expect(categoryOf('???:Builtins_AllocateInYoungGeneration [node]')).toBe('builtins');
    expect(categoryOf('./string/../memmove-vec-unaligned-erms.S:__memcpy_avx_unaligned_erms [/usr/lib/x86_64-linux-gnu/libc.so.6]')).toBe('libc');
    expect(categoryOf('???:0x000000001833e800 [???]')).toBe('jit-code');
    expect(categoryOf('???:v8::internal::maglev::MaglevGraphBuilder::VisitSingleBytecode() [node]')).toBe('compiler');
  });

  it('counts per request everything but the compiler and the collector', () => {
    const categories = categorise(ANNOTATED, 300);
    expect(categories.instructionsPerRequest).toBe(10_000);
    expect(categories.byCategory).toEqual({
      'jit-code': 3_000,
      'json-parse': 2_000,
      gc: 1_800,
      'v8-other': 1_000,
      libc: 1_000,
      compiler: 800,
      builtins: 400,
    });
    expect(categories.withoutCompilerAndGc).toBe(10_000 - 1_800 - 800);
    // With requests in flight together the gate counts the collector's work too.
    expect(categories.withoutCompiler).toBe(10_000 - 800);
  });
});
