// Remote module imports, as k6 v1.3's loader does them (internal/loader/loader.go): `import x from
// 'https://…'` is fetched once per run when the script is bundled, imports inside it resolve against
// its URL, `file://` URLs are local files, and other schemes and k6's old github.com/cdnjs.com
// shorthands are refused. Scripts commonly import jslib.k6.io helpers (k6-summary's textSummary,
// k6-utils) and k6-reporter this way. An error carries, as its `detail`, what k6's dependency
// analysis (which runs first, and fetches too) says of the same import (ImportAnalysis).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OnResolveResult, Plugin } from 'esbuild';
import { goFetchFailure } from '../bridge/go-http.js';

/** esbuild namespace of fetched modules; their paths are absolute https URLs. */
export const REMOTE_NAMESPACE = 'https-module';
export const REMOTE_PLUGIN = 'k6-remote-modules';

/** k6 gives a remote module a minute. */
const FETCH_TIMEOUT_MS = 60_000;

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** k6's built-in modules (`k6`, `k6/http`, …): served by runner/modules, never resolved here. */
export const K6_MODULE = /^k6(\/.*)?$/;

/**
 * k6 up to v0.52 turned `github.com/…` and `cdnjs.com/…` into raw.githubusercontent.com and cdnjs URLs;
 * since v0.53 (so in v1.3) its Resolve refuses any specifier with those prefixes, with these words.
 */
const SHORTHAND = /^(?:cdnjs|github)\.com/;
const CDNJS_REFUSAL =
  "cdnjs.com 'special' urls are no longer supported - please use real ones. " +
  'You can get yours by going to cdnjs and copy-pasting the full url to the actual JavaScript file';
const GITHUB_REFUSAL =
  "github.com 'special' urls are no longer supported - please use real ones. " +
  'You can get yours by going to github and copy-pasting the full url to the actual raw JavaScript file';

/**
 * An import error's `detail`: what k6 v1.3's dependency analysis (k6deps, on by default) says of that
 * import, where it fails there too. It reads every specifier that is not an http(s) URL or a k6
 * module as a file beside the importer, and fetches the URLs (plain http only from 127.0.0.1).
 */
export interface ImportAnalysis {
  analysis: string;
}

/** The analysis of a specifier it takes for a local file: fails only where no such file is. */
function fileAnalysis(specifier: string, importer: string): ImportAnalysis | undefined {
  const file = path.join(path.dirname(importer), specifier);
  return existsSync(file)
    ? undefined
    : { analysis: `opening file via launcher's bridge: open ${file}: no such file or directory` };
}

/** A fetch that failed: its message in k6's loader's words, and the analysis's. */
class FetchFailure extends Error {
  constructor(
    message: string,
    readonly analysis: string,
  ) {
    super(message);
  }
}

/** What the analysis says of a failed fetch: a FetchFailure's own words, else the error's. */
const fetchAnalysis = (err: unknown): ImportAnalysis => ({
  analysis: err instanceof FetchFailure ? err.analysis : (err as Error).message,
});

/** Carried from onResolve to onLoad: k6's fetch error names the import as it was written. */
interface RemoteModuleData {
  specifier: string;
}

function remoteModule(url: string, specifier: string): OnResolveResult {
  const pluginData: RemoteModuleData = { specifier };
  return { path: url, namespace: REMOTE_NAMESPACE, pluginData };
}

/** The specifier of the import that made esbuild load `url` (esbuild types pluginData as any). */
function specifierOf(pluginData: unknown, url: string): string {
  const data = pluginData as Partial<RemoteModuleData> | undefined;
  return typeof data?.specifier === 'string' ? data.specifier : url;
}

/**
 * The plugin, with one cache for the run (k6 keeps each fetched module for the run too). `fetchText`
 * is injectable for tests; by default it is Node's fetch, whose TLS trusts the system roots (and
 * NODE_EXTRA_CA_CERTS), like Go's default client in k6.
 */
export function remoteModules(fetchText: (url: string) => Promise<string> = fetchModule): Plugin {
  const cache = new Map<string, Promise<string>>();
  return {
    name: REMOTE_PLUGIN,
    setup(build) {
      /** The analysis fetches a plain http module too, then k6's loader refuses it. */
      const httpAnalysis = async (scheme: string, url: string): Promise<ImportAnalysis | undefined> => {
        if (scheme !== 'http') return undefined;
        if (new URL(url).hostname !== '127.0.0.1')
          return { analysis: 'http is forbidden except for 127.0.0.1' };
        try {
          await fetchText(url);
          return undefined;
        } catch (err) {
          return fetchAnalysis(err);
        }
      };
      build.onResolve({ filter: SCHEME }, async (args) => {
        const scheme = SCHEME.exec(args.path)![1]!.toLowerCase();
        if (scheme === 'https') return remoteModule(new URL(args.path).href, args.path);
        if (scheme === 'file') {
          if (args.namespace === REMOTE_NAMESPACE) {
            return {
              errors: [{ text: `origin (${args.importer}) not allowed to load local file: ${args.path}` }],
            };
          }
          return { path: fileURLToPath(args.path) };
        }
        const refusal = `only supported schemes for imports are file and https, ${args.path} has \`${scheme}\``;
        return { errors: [{ text: refusal, detail: await httpAnalysis(scheme, args.path) }] };
      });
      // k6 checks for `://` first: such a specifier is a URL (or a refused scheme), not a shorthand.
      build.onResolve({ filter: SHORTHAND }, (args) => {
        if (args.path.includes('://')) return undefined;
        const text = args.path.startsWith('cdnjs') ? CDNJS_REFUSAL : GITHUB_REFUSAL;
        return { errors: [{ text, detail: fileAnalysis(args.path, args.importer) }] };
      });
      // Any other name that is neither a path nor a URL: k6 has no node_modules (`lodash`, `node:fs`).
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point' || K6_MODULE.test(args.path) || path.isAbsolute(args.path)) {
          return undefined;
        }
        return {
          errors: [
            {
              text: `The moduleSpecifier "${args.path}" couldn't be recognised as something k6 supports.`,
              detail:
                args.namespace === REMOTE_NAMESPACE ? undefined : fileAnalysis(args.path, args.importer),
            },
          ],
        };
      });
      // Relative and root-relative imports inside a remote module are remote too.
      build.onResolve({ filter: /^\.{0,2}\//, namespace: REMOTE_NAMESPACE }, (args) =>
        remoteModule(new URL(args.path, args.importer).href, args.path),
      );
      build.onLoad({ filter: /.*/, namespace: REMOTE_NAMESPACE }, async (args) => {
        let text = cache.get(args.path);
        if (!text) cache.set(args.path, (text = fetchText(args.path)));
        try {
          return { contents: await text, loader: 'js' };
        } catch (err) {
          cache.delete(args.path);
          const specifier = specifierOf(args.pluginData, args.path);
          return {
            errors: [
              {
                text: `The moduleSpecifier "${specifier}" couldn't be retrieved from the resolved url "${args.path}". Error : "${(err as Error).message}"`,
                detail: fetchAnalysis(err),
              },
            ],
          };
        }
      });
    },
  };
}

/** GET with k6's `_k6=1` marker, then once without it (some servers dislike unknown parameters). */
async function fetchModule(url: string): Promise<string> {
  // Appended to the raw query as k6 does; searchParams would re-encode it (%20 -> +).
  const marked = new URL(url);
  marked.search = marked.search ? `${marked.search}&_k6=1` : '?_k6=1';
  try {
    return await get(marked.href);
  } catch {
    return await get(url);
  }
}

async function get(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  } catch (err) {
    // The reason (refused, DNS, certificate) in Go's words.
    const message = `Get "${url}": ${goFetchFailure(err as Error)}`;
    throw new FetchFailure(message, message);
  }
  // The analysis takes any answer but a 200 (or a page of HTML) for a module that is not there.
  if (res.status === 404) throw new FetchFailure(`not found: ${url}`, 'module not found');
  if (res.status !== 200)
    throw new FetchFailure(`wrong status code (${res.status}) for: ${url}`, 'module not found');
  return res.text();
}
