// Load profiles: ramping-vus stages per test kind, and the rule that picks one. Pure (no k6
// imports) so the rule is unit-tested under Node as well as used inside k6.

export interface Stage {
  duration: string;
  target: number;
}

export interface Profile {
  stages: Stage[];
  gracefulRampDown: string;
}

export const PROFILE_NAMES = ['smoke', 'load', 'ci', 'stress', 'spike', 'soak', 'breakpoint'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

const stage = (duration: string, target: number): Stage => ({ duration, target });

/** Minutes of steady load in the soak profile: LT_SOAK_MINUTES, default 30. */
export function soakMinutes(env: Record<string, string | undefined>): number {
  const minutes = Number(env.LT_SOAK_MINUTES ?? 30);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new Error(`LT_SOAK_MINUTES must be a positive number of minutes, got "${env.LT_SOAK_MINUTES}"`);
  }
  return minutes;
}

/**
 * Smoke-sized runs that keep the shape a scenario is for (35 s and a handful of VUs, like smoke): under
 * LT_PROFILE=smoke (npm run lab) the spike scenario ran smoke's flat 0 -> 2 VU ramp, so its report
 * showed no spike. A load, soak or smoke scenario's shape is smoke's own ramp, hold and ramp down.
 */
function smokeShaped(kind: ProfileName | undefined): Stage[] | undefined {
  switch (kind) {
    case 'spike':
      // A quiet start, a jump to 4x the VUs in 2 s, a hold, the drop back and a quiet end.
      return [
        stage('5s', 1),
        stage('5s', 1),
        stage('2s', 8),
        stage('10s', 8),
        stage('2s', 1),
        stage('6s', 1),
        stage('5s', 0),
      ];
    case 'stress':
    case 'breakpoint':
      // Steps up, each held, before the ramp down.
      return [
        stage('5s', 2),
        stage('5s', 2),
        stage('5s', 4),
        stage('5s', 4),
        stage('5s', 6),
        stage('5s', 6),
        stage('5s', 0),
      ];
    default:
      return undefined;
  }
}

/**
 * The stages of a profile. `kind` is the script's own profile (its default): with `smoke` it gives the
 * smoke-sized run of that kind (smokeShaped), so a spike scenario under smoke still spikes.
 */
export function profileByName(
  name: ProfileName,
  env: Record<string, string | undefined>,
  kind?: ProfileName,
): Profile {
  switch (name) {
    case 'smoke':
      return {
        stages: smokeShaped(kind) ?? [stage('10s', 2), stage('20s', 2), stage('5s', 0)],
        gracefulRampDown: '5s',
      };
    case 'load':
      return {
        stages: [stage('1m', 10), stage('3m', 25), stage('2m', 25), stage('1m', 0)],
        gracefulRampDown: '30s',
      };
    case 'ci':
      return { stages: [stage('15s', 3), stage('30s', 5), stage('10s', 0)], gracefulRampDown: '5s' };
    case 'stress':
      return {
        stages: [stage('2m', 20), stage('3m', 50), stage('3m', 80), stage('2m', 100), stage('2m', 0)],
        gracefulRampDown: '1m',
      };
    case 'spike':
      return {
        stages: [stage('30s', 5), stage('10s', 100), stage('1m', 100), stage('10s', 5), stage('30s', 0)],
        gracefulRampDown: '20s',
      };
    case 'soak':
      return {
        stages: [stage('2m', 15), stage(`${soakMinutes(env)}m`, 15), stage('2m', 0)],
        gracefulRampDown: '1m',
      };
    case 'breakpoint':
      return {
        stages: [...[10, 25, 50, 75, 100, 125].map((target) => stage('2m', target)), stage('2m', 0)],
        gracefulRampDown: '1m',
      };
  }
}

function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}

/**
 * The spec's rule: the argument, else LT_PROFILE, else smoke; CI=true turns smoke into ci;
 * an unknown name gives smoke.
 */
export function selectProfileName(
  argument: string | undefined,
  env: Record<string, string | undefined>,
): ProfileName {
  const requested = argument || env.LT_PROFILE || 'smoke';
  const known: ProfileName = isProfileName(requested) ? requested : 'smoke';
  return known === 'smoke' && env.CI === 'true' ? 'ci' : known;
}

/** The one line to print when LT_PROFILE names no profile (the spec's rule then runs smoke). */
export function unknownProfileWarning(env: Record<string, string | undefined>): string | undefined {
  const requested = env.LT_PROFILE;
  if (!requested || isProfileName(requested)) return undefined;
  return `LT_PROFILE=${requested} is not a profile (${PROFILE_NAMES.join(', ')}); running smoke`;
}
