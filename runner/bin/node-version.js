// The Node.js check `loadlab` makes before it loads anything else: on a Node older than the package's
// `engines` it prints one line that says so and exits 1, instead of failing later on an API that
// Node lacks. Plain JavaScript with nothing newer than ES2020, so an old Node can run it.
import { readFileSync } from 'node:fs';

/** The lowest version a `>=x.y.z` range allows, as numbers; undefined for a range of another form. */
export function lowestAllowed(range) {
  const match = /^>=\s*v?(\d+)\.(\d+)\.(\d+)$/.exec(String(range).trim());
  return match ? match.slice(1, 4).map(Number) : undefined;
}

/** The line to print when Node `version` (e.g. '18.19.0') is older than `range`, else undefined. */
export function nodeVersionProblem(version, range) {
  const lowest = lowestAllowed(range);
  if (!lowest) return undefined;
  const given = String(version).replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((given[i] || 0) > lowest[i]) return undefined;
    if ((given[i] || 0) < lowest[i])
      return `loadlab needs Node.js ${String(range).trim()}; this is Node.js v${given.join('.')}: install a current Node.js (22 or 24) and run it again`;
  }
  return undefined;
}

/** Exits 1 with nodeVersionProblem's line when this Node is older than the package's engines. */
export function refuseOldNode(manifestUrl, version = process.versions.node) {
  const range = JSON.parse(readFileSync(manifestUrl, 'utf8')).engines?.node;
  const problem = range === undefined ? undefined : nodeVersionProblem(version, range);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
