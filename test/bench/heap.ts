// The heap a target keeps, read through the V8 inspector of a process started with
// --inspect=127.0.0.1:<port> (the soak's facade only): a full collection, then the heap in use.
// Bench only: the service itself has no endpoint that triggers a collection.
import { setTimeout as sleep } from 'node:timers/promises';

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
