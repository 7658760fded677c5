// http.batch as k6 runs it (lib/netext/httpext/batch.go): `workers` workers (batch: 20 by default),
// each taking the next request in order and then waiting for a slot of that request's host (at most
// batchPerHost at once, 6 by default; 0 is no limit) before it sends it. So a batch of 30 requests to
// one host keeps 6 in flight, as k6's does, not 30.
import type { BatchLimits } from '../bridge/protocol.js';

/** A request's host as Go's url.URL.Host holds it, which k6 keys its per-host slots by: host[:port] as written. */
export function batchHostKey(url: string): string {
  const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(url)?.[1] ?? url;
  return authority.slice(authority.lastIndexOf('@') + 1);
}

/** Slots of one host, given in the order they were asked for (as Go's channel hands them out). */
class HostSlots {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  take(): Promise<void> | undefined {
    if (this.free > 0) {
      this.free -= 1;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

/** Runs `send` on every item under k6's batch limits; the answers in the items' order. */
export async function underBatchLimits<T, A>(
  items: T[],
  urlOf: (item: T) => string,
  [workers, perHost]: BatchLimits,
  send: (item: T) => Promise<A>,
): Promise<A[]> {
  const answers = new Array<A>(items.length);
  const hosts = new Map<string, HostSlots>();
  let next = 0;
  async function work(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      let slots: HostSlots | undefined;
      if (perHost > 0) {
        const host = batchHostKey(urlOf(item));
        slots = hosts.get(host);
        if (!slots) hosts.set(host, (slots = new HostSlots(perHost)));
        await slots.take();
      }
      try {
        answers[index] = await send(item);
      } finally {
        slots?.give();
      }
    }
  }
  // k6 starts no worker for batch <= 0 and never answers; here that is no limit instead of a hang.
  const count = workers > 0 ? Math.min(workers, items.length) : items.length;
  await Promise.all(Array.from({ length: count }, work));
  return answers;
}
