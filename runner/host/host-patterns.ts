// k6's host-name patterns (lib/types/trie.go), which the hosts and blockHostnames options share: a
// name matches itself, case aside, or `*` followed by one of its suffixes (`*.example.com`,
// `*ample.com`, `*`), the longest such suffix winning.

/** The pattern `name` matches, lower-cased as k6 reports it, or undefined. */
export function matchHostPattern(isPattern: (key: string) => boolean, name: string): string | undefined {
  const s = name.toLowerCase();
  if (isPattern(s)) return s;
  for (let i = 0; i <= s.length; i++) {
    const wildcard = `*${s.slice(i)}`;
    if (isPattern(wildcard)) return wildcard;
  }
  return undefined;
}
