// Polls health URLs until each answers 2xx: the one way every script knows services are ready.

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** Resolves when every URL answers 2xx; rejects naming the ones that did not within the timeout. */
export async function waitForHealthy(urls: readonly string[], options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let pending = [...urls];
  for (;;) {
    const results = await Promise.all(pending.map(answers));
    pending = pending.filter((_, i) => !results[i]);
    if (pending.length === 0) return;
    if (Date.now() >= deadline)
      throw new Error(`not healthy after ${options.timeoutMs} ms: ${pending.join(', ')}`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 200));
  }
}
