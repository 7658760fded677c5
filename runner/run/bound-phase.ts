// A piece of a run's work raced against its time limit and a stop (a signal), with no timer left
// behind once it is decided: a timer left running holds the process at the end of the run.

export type BoundedPhase<T> = { ended: false; value: T } | { ended: 'timeout' | 'stopped' };

/**
 * `work`'s value, or how it was cut short: its timeout passed first, or `stop` (a signal) settled
 * first. A rejection of `work` is thrown, unless the phase was already cut short.
 */
export async function boundPhase<T>(
  work: Promise<T>,
  timeoutMs: number,
  stop?: Promise<unknown>,
): Promise<BoundedPhase<T>> {
  let timer: NodeJS.Timeout | undefined;
  // No timer for an unbounded phase (Node would fire one past 2^31 - 1 ms at once).
  const timeout = new Promise<BoundedPhase<T>>((resolve) => {
    if (Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve({ ended: 'timeout' }), timeoutMs);
  });
  const stopped = stop?.then((): BoundedPhase<T> => ({ ended: 'stopped' }));
  // The work may still reject after it was cut short (its VU closed): that is no one's error.
  work.catch(() => {});
  try {
    return await Promise.race([
      work.then((value): BoundedPhase<T> => ({ ended: false, value })),
      timeout,
      ...(stopped ? [stopped] : []),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
