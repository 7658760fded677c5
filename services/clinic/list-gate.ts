// A bound on what unpaged lists hold at once. `GET /owners` reads every owner with their pets and
// visits and holds it all until it is written out: 300 of them at once on 6,400 owners took the
// process to 360 MB and starved the pool. At most `running` lists are built at a time; the next
// ones wait in order, and one that cannot start within `waitMs` (or finds `maxWaiting` ahead of it)
// answers 503 with Retry-After, like a pool that cannot serve in time.
import { StoreUnavailable } from './store/types.js';

export interface ListGateLimits {
  running: number;
  maxWaiting: number;
  waitMs: number;
}

export const LIST_GATE_LIMITS: ListGateLimits = { running: 4, maxWaiting: 200, waitMs: 2000 };

export function createListGate(limits: ListGateLimits = LIST_GATE_LIMITS) {
  let running = 0;
  const waiting: { start: () => void; timer: NodeJS.Timeout }[] = [];
  const next = () => {
    const first = waiting.shift();
    if (!first) return;
    clearTimeout(first.timer);
    first.start();
  };
  return {
    stats: () => ({ running, waiting: waiting.length }),
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= limits.running) {
        if (waiting.length >= limits.maxWaiting) throw new StoreUnavailable('too many list requests waiting');
        await new Promise<void>((resolve, reject) => {
          const entry = {
            start: resolve,
            timer: setTimeout(() => {
              waiting.splice(waiting.indexOf(entry), 1);
              reject(new StoreUnavailable(`no list slot within ${limits.waitMs} ms`));
            }, limits.waitMs),
          };
          waiting.push(entry);
        });
      }
      running += 1;
      try {
        return await task();
      } finally {
        running -= 1;
        next();
      }
    },
  };
}
