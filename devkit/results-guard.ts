// Proves the test suite leaves the user's results/ as it found it: a snapshot of the folder (every
// entry's kind, size, modification time, link target) before the suite and a comparison after.
// Tests must write only into temporary folders they remove (a test run once left summaries, a
// test-artifacts folder and a dangling link there, and the lab's next report mixed them in).
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Relative path -> what it is; an absent folder is the empty snapshot (a fresh clone has none). */
export type Snapshot = Map<string, string>;

export function snapshotFolder(root: string): Snapshot {
  const out: Snapshot = new Map();
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(join(root, rel));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') return;
      throw e;
    }
    for (const name of names.sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const s = lstatSync(join(root, path));
      if (s.isSymbolicLink()) out.set(path, `link -> ${readlinkSync(join(root, path))}`);
      else if (s.isDirectory()) {
        out.set(path, 'folder');
        walk(path);
      } else out.set(path, `file, ${s.size} bytes, modified ${s.mtime.toISOString()}`);
    }
  };
  walk('');
  return out;
}

/** One line per entry that appeared, disappeared or changed, sorted; empty when nothing did. */
export function snapshotChanges(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [path, what] of after) {
    const was = before.get(path);
    if (was === undefined) lines.push(`added ${path} (${what})`);
    else if (was !== what) lines.push(`changed ${path} (${was} -> ${what})`);
  }
  for (const [path, was] of before) if (!after.has(path)) lines.push(`removed ${path} (${was})`);
  return lines.sort((a, b) => a.slice(a.indexOf(' ')).localeCompare(b.slice(b.indexOf(' '))));
}

/** The failure message, at most `limit` entries named. */
export function describeChanges(folder: string, changes: string[], limit = 20): string {
  const shown = changes.slice(0, limit).map((c) => `  ${c}`);
  const more = changes.length > limit ? [`  … and ${changes.length - limit} more`] : [];
  return [
    `the tests changed ${folder} (${changes.length} entr${changes.length === 1 ? 'y' : 'ies'}); tests must write only into temporary folders they remove:`,
    ...shown,
    ...more,
  ].join('\n');
}
