// `k6/secrets`: the default export's get(key) reads the default source, source(name).get(key) a named
// one (from --secret-source, runner/options/secret-sources.ts); each resolves the value or rejects with
// k6's Go error. A value read is first announced to the main thread, whose logger redacts it from
// every later line as k6's does (the announcement travels ahead of any line that could hold it).
import { GoRejection } from '../api/go-error.js';

export type SecretSourceMap = Record<string, Record<string, string>>;

export function createSecretsModule(
  sources: SecretSourceMap,
  reveal: (secret: string) => void,
): Record<string, unknown> {
  const revealed = new Set<string>();
  const getter = (sourceName: string) => (key: unknown) => {
    if (Object.keys(sources).length === 0) {
      return Promise.reject(new GoRejection('no secret sources are configured'));
    }
    const source = Object.hasOwn(sources, sourceName) ? sources[sourceName] : undefined;
    if (!source) {
      return Promise.reject(
        new GoRejection(`no secret source with name ${JSON.stringify(sourceName)} is configured`),
      );
    }
    const name = String(key);
    if (!Object.hasOwn(source, name)) return Promise.reject(new GoRejection('no value'));
    const value = source[name]!;
    if (!revealed.has(value)) {
      revealed.add(value);
      reveal(value);
    }
    return Promise.resolve(value);
  };
  return {
    get: getter('default'),
    source: (name: unknown) => ({ get: getter(String(name)) }),
  };
}
