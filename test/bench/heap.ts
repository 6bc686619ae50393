// The heap a target keeps, read through the V8 inspector of a process started with
// --inspect=127.0.0.1:<port> (the soak's facade only): a full collection, then the heap in use.
// Bench only: the service itself has no endpoint that triggers a collection.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RoundResult } from './drive.js';
import { round, slopeInterval } from './stats.js';

export interface HeapProbe {
  /** Collects garbage (all generations) and answers the heap used afterwards, in bytes. */
  usedAfterGc(): Promise<number>;
  /** Any inspector method, with its parameters (survivors.ts samples allocations with it). */
  call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): void;
}

export async function openHeapProbe(inspectorPort: number): Promise<HeapProbe> {
  let targets: Array<{ webSocketDebuggerUrl: string }> = [];
  for (let attempt = 0; attempt < 50 && targets.length === 0; attempt++) {
    try {
      targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as typeof targets;
    } catch {
      await sleep(100);
    }
  }
  if (!targets[0]) throw new Error(`no inspector target on port ${inspectorPort}`);
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('the inspector refused the connection')), { once: true });
  });
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  let nextId = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = ++nextId;
      pending.set(id, (result) => {
        pending.delete(id);
        resolve(result);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async usedAfterGc() {
      await call('HeapProfiler.collectGarbage');
      return (await call('Runtime.getHeapUsage')).usedSize as number;
    },
    call,
    close: () => socket.close(),
  };
}

/** How often a soak samples the heap after a full collection. */
export const HEAP_SAMPLE_MS = 1_000;

export interface HeapSample {
  phase: number;
  requests: number;
  heapMiB: number;
}

/**
 * `requests` requests in `phaseCount` phases, each driven by `drivePhase` (its amount, the requests
 * done before it, and the counter to call per request), the heap after a full collection sampled
 * every HEAP_SAMPLE_MS against the requests done; then each phase's least-squares slope of it, in
 * KiB per 10,000 requests, with its 95 % interval: a service that keeps nothing per request has an
 * interval that holds zero, phase after phase. `onSample` runs beside each heap sample,
 * `afterPhase` after each phase.
 */
export async function soakInPhases(
  probe: HeapProbe,
  phaseCount: number,
  requests: number,
  drivePhase: (amount: number, done: number, count: () => void) => Promise<RoundResult>,
  hooks: { onSample?: () => void; afterPhase?: (phase: number, done: number) => void } = {},
) {
  const perPhase = Math.ceil(requests / phaseCount);
  let done = 0;
  const heap: HeapSample[] = [];
  const results: RoundResult[] = [];
  for (let phase = 0; phase < phaseCount; phase++) {
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const at = done;
        const used = await probe.usedAfterGc();
        heap.push({ phase, requests: at, heapMiB: round(used / 2 ** 20, 3) });
        hooks.onSample?.();
        await sleep(HEAP_SAMPLE_MS);
      }
    })();
    results.push(await drivePhase(perPhase, done, () => (done += 1)));
    sampling = false;
    await sampler;
    hooks.afterPhase?.(phase, done);
  }
  const phases = Array.from({ length: phaseCount }, (_, phase) => {
    const points = heap.filter((h) => h.phase === phase).map((h) => [h.requests / 10_000, h.heapMiB * 1024] as const);
    const fit = slopeInterval(points);
    return { samples: points.length, slopeKiBPer10kRequests: round(fit.slope, 1), low: round(fit.low, 1), high: round(fit.high, 1) };
  });
  return { results, heap, phases };
}
