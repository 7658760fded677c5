// Which required environment variables are missing: unset, blank, or still a `<placeholder>` copied
// from .env.example. The library of the command scripts/require-env.ts, also used by stack/k8s/manifests.ts.

/** `.env.example` marks values to fill in as `<...>`; such a value is as good as none. */
const PLACEHOLDER = /^<[^>]*>$|:\/\/<[^>]*>/;

export function missingVariables(names: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return names.filter((name) => {
    const value = (env[name] ?? '').trim();
    return value === '' || PLACEHOLDER.test(value);
  });
}
