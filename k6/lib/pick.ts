// Weighted choice, with the random source injectable for tests (pauses: think-time.ts).

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
