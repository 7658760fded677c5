// The phases of one engine run, from the markers bench:wall's scripts log (`WALL <name> <Date.now()>`,
// in k6's logfmt on stderr) and the times the bench spawned the process and saw it exit.
export const PHASES = ['start', 'vuInit', 'setup', 'scenarios', 'end'] as const;

export type Phases = Record<(typeof PHASES)[number] | 'wall', number>;

/** The marker lines every bench:wall script carries (init end, setup, teardown). */
export const MARK = (name: string) => `console.log('WALL ${name} ' + Date.now());`;

export function phasesOf(stderr: string, spawned: number, exited: number): Phases {
  const marks = new Map<string, number[]>();
  for (const m of stderr.matchAll(/msg="WALL ([a-z-]+) (\d+)"/g))
    marks.set(m[1]!, [...(marks.get(m[1]!) ?? []), Number(m[2])]);
  const one = (name: string): number => {
    const at = marks.get(name);
    if (at?.length !== 1) throw new Error(`expected one '${name}' marker, got ${at?.length ?? 0}`);
    return at[0]!;
  };
  const setupStart = one('setup-start');
  const setupEnd = one('setup-end');
  const teardownStart = one('teardown-start');
  // VUs an arrival-rate scenario adds during the test init after setup: not part of the start.
  const inits = (marks.get('init') ?? []).filter((t) => t <= setupStart);
  if (!inits.length) throw new Error("no 'init' marker before setup");
  const firstInit = Math.min(...inits);
  const lastInit = Math.max(...inits);
  return {
    wall: exited - spawned,
    start: firstInit - spawned,
    vuInit: lastInit - firstInit,
    setup: setupEnd - lastInit,
    scenarios: teardownStart - setupEnd,
    end: exited - teardownStart,
  };
}
