// How deep a parsed JSON value nests, counted without recursion: a 10 KB body of 5,000 nested arrays
// is valid JSON, and code that walks it recursively (a validator, its error messages) overflows the
// stack. Services bound the depth right after parsing, before anything else looks at the value.

/** True when `value` nests arrays/objects more than `maxDepth` levels (a scalar is depth 0). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
