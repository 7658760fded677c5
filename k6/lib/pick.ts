// Weighted choice and think time, with the random source injectable for tests.

export interface Weighted<T> {
  weight: number;
  value: T;
}

export function weightedPick<T>(items: readonly Weighted<T>[], random: () => number = Math.random): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  if (!(total > 0)) throw new Error('weightedPick needs at least one positive weight');
  let point = random() * total;
  for (const item of items) {
    point -= item.weight;
    if (point < 0) return item.value;
  }
  return items[items.length - 1]!.value;
}

/** Seconds to pause, uniform in [min, max). */
export function thinkTime(
  minSeconds: number,
  maxSeconds: number,
  random: () => number = Math.random,
): number {
  return minSeconds + random() * (maxSeconds - minSeconds);
}
