// Test helpers for comparing end-of-test text summaries with real k6 output: the layout of a summary
// with its values masked (values differ between runs; section order, titles, indentation, dots,
// metric names, stat names, marks and check lines must not).

const BYTE_UNIT = /^[kMGTPEZY]?B(\/s)?$/;

/** One value cell masked: `p(95)=1.2ms` -> `p(95)=N`, `12.5ms` / `80.00%` / `-3` -> `N`, `kB/s` -> `U`. */
function maskToken(token: string): string {
  const eq = token.indexOf('=');
  if (eq >= 0) return `${token.slice(0, eq)}=N`;
  if (/^-?\d/.test(token)) return 'N';
  return BYTE_UNIT.test(token) ? 'U' : token;
}

/** A summary line with its values masked; padding between cells collapses to one space. */
export function maskLine(line: string): string {
  const metric = /^(.*?\.{3,}): (.*)$/.exec(line);
  if (metric) return `${metric[1]}: ${metric[2]!.trim().split(/\s+/).map(maskToken).join(' ')}`;
  const threshold = /^(\s*[✓✗] '.*' [^=]+)=(.*)$/.exec(line);
  if (threshold) return `${threshold[1]}=N`;
  return line.replace(/↳ {2}\d+% — ✓ \d+ \/ ✗ \d+/, '↳  N% — ✓ N / ✗ N');
}

/** The masked lines of a summary, from its first non-blank line to its last. */
export function layoutOf(text: string): string[] {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last -= 1;
  return lines.slice(first, last + 1).map(maskLine);
}

/** The summary part of a full k6 console capture: from the first `█` title to the final progress. */
export function summaryPart(capture: string): string {
  const start = capture.indexOf('  █ ');
  const end = capture.lastIndexOf('\nrunning (');
  return capture.slice(start, end > start ? end : undefined);
}

/** First differing line, for a readable failure. */
export function firstDifference(ours: string[], golden: string[]): string | undefined {
  for (let i = 0; i < Math.max(ours.length, golden.length); i++) {
    if (ours[i] !== golden[i])
      return `line ${i + 1}:\n  ours:   ${JSON.stringify(ours[i])}\n  golden: ${JSON.stringify(golden[i])}`;
  }
  return undefined;
}

/** Undoes `cat -v`: `^[` -> ESC, `M-bM-^\M-^S` -> the UTF-8 bytes of ✓. */
export function decodeCatV(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length;) {
    let meta = 0;
    if (text.startsWith('M-', i)) {
      meta = 0x80;
      i += 2;
    }
    if (text[i] === '^' && i + 1 < text.length) {
      const c = text.charCodeAt(i + 1);
      bytes.push(meta | (c === 0x3f ? 0x7f : c ^ 0x40));
      i += 2;
    } else {
      bytes.push(meta | text.charCodeAt(i));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
