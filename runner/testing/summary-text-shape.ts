// The structure of k6 v1's end-of-test text summary, without its numbers and padding: each
// section (THRESHOLDS, TOTAL RESULTS, SCENARIO, GROUP, with its depth) in order, and in each its
// checks, metric blocks (HTTP, EXECUTION, ...) and metric names. Checks within a section are
// sorted: k6 lists them in the order the engine first saw them, which timing decides.

export interface SummarySection {
  heading: string;
  depth: number;
  checks: string[];
  /** "BLOCK metric" per metric line, in order. */
  metrics: string[];
}

export function fullSummaryShape(text: string): SummarySection[] {
  const sections: SummarySection[] = [];
  let current: SummarySection | undefined;
  let block = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    // `↳ GROUP: x` opens a section; `↳  0% — ✓ 0 / ✗ 1` under a failed check does not.
    const heading = /^( *)(█|↳) ([A-Z]+.*)$/.exec(line);
    if (heading) {
      current = {
        heading: `${heading[2]} ${heading[3]!.trim()}`,
        depth: heading[1]!.length,
        checks: [],
        metrics: [],
      };
      sections.push(current);
      block = '';
      continue;
    }
    if (!current) continue;
    const check = /^ +([✓✗]) (.+)$/.exec(line);
    const metric = /^ +([\w{][^.:]*?)\.{2,}: /.exec(line) ?? /^ +(\{ [^}]+ \})\.*: /.exec(line);
    // A threshold line ends with what it observed: `✓ 'p(95)<5000' p(95)=3.46ms`; keep the expression.
    if (check) current.checks.push(`${check[1]} ${check[2]!.replace(/^('[^']*').*$/, '$1')}`);
    else if (/^ +[A-Z][A-Z ]+$/.test(line)) block = line.trim();
    else if (metric) current.metrics.push(`${block} ${metric[1]!.trim()}`);
  }
  for (const s of sections) s.checks.sort();
  return sections;
}
