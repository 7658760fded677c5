// Think time: the pause a user takes between actions. Every scenario and journey ends its iteration
// with one of these named pauses, so a VU is a user (a closed model) and VU counts mean something:
// without a pause one VU loops as fast as the service answers and a "load" profile is a stress test.
// The spec's values where it gives them; LT_THINK_TIME scales every pause (0 = none, for a throughput
// test; 0.5 = half; default 1). Pure, unit-tested under Node; iteration.ts sleeps them.

/** Seconds, uniform in [min, max); min === max is a fixed pause. */
export interface Pause {
  min: number;
  max: number;
}

const fixed = (seconds: number): Pause => ({ min: seconds, max: seconds });
const between = (min: number, max: number): Pause => ({ min, max });

export const THINK_TIME = {
  /** Smoke: 0.5 s after health and after users (spec). */
  smokeStep: fixed(0.5),
  /** Smoke: 1 s after the login, ending the iteration (spec). */
  smokeEnd: fixed(1),
  /** Load users: 0.5 s plus a random 0 to 1 s (spec). */
  users: between(0.5, 1.5),
  /** Load auth: not in the spec's table; a user who logged in reads the page, as in load users. */
  loadAuth: between(0.5, 1.5),
  /** Mixed traffic: random 0.5 to 2 s (spec). */
  mixed: between(0.5, 2),
  /** Stress and breakpoint (ramping VUs): half a second, so VUs still stand for users. */
  stress: fixed(0.5),
  /** Spike: the spec's "minimal pause". */
  spike: fixed(0.1),
  /** Soak: 1 to 3 s, a steady population over a long run. */
  soak: between(1, 3),
  /** Journey auth: 0.3 s after the login (spec). */
  journeyLogin: fixed(0.3),
  /** Journey auth: 0.5 s after each later step (spec). */
  journeyStep: fixed(0.5),
  /** Login flow: not in the spec's table; the user reads the dashboard before the next flow. */
  loginFlowEnd: between(0.5, 1.5),
  /** Clinic CRUD journey and the secured clinic's readers. */
  clinic: fixed(0.5),
  /** Secured clinic: the anonymous probe, once a second. */
  clinicProbe: fixed(1),
  /** Error simulation: a user pauses as in smoke. */
  errors: fixed(0.5),
  /** Browser: a user looks at the dashboard before closing the tab. */
  browser: fixed(1),
} as const satisfies Record<string, Pause>;

/** LT_THINK_TIME as a factor (default 1); anything but a number >= 0 stops the run at init. */
export function thinkTimeFactor(env: Record<string, string | undefined>): number {
  const raw = env.LT_THINK_TIME;
  if (raw === undefined || raw === '') return 1;
  const factor = Number(raw);
  if (!Number.isFinite(factor) || factor < 0) {
    throw new Error(`LT_THINK_TIME must be a number >= 0 (a factor on every pause; 0 = none), got "${raw}"`);
  }
  return factor;
}

/** The seconds one pause lasts. */
export function pauseSeconds(pause: Pause, factor: number, random: () => number = Math.random): number {
  const seconds = pause.min === pause.max ? pause.min : pause.min + random() * (pause.max - pause.min);
  return seconds * factor;
}
