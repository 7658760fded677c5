// Remote module imports, as k6's loader does them (loader/loader.go): `import x from 'https://…'`
// is fetched once per run when the script is bundled, imports inside it resolve against its URL,
// `file://` URLs are local files, and any other scheme is refused. Scripts commonly import
// jslib.k6.io helpers (k6-summary's textSummary, k6-utils) and k6-reporter this way.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

/** esbuild namespace of fetched modules; their paths are absolute https URLs. */
export const REMOTE_NAMESPACE = 'https-module';
export const REMOTE_PLUGIN = 'k6-remote-modules';

/** k6 gives a remote module a minute. */
const FETCH_TIMEOUT_MS = 60_000;

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

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
      build.onResolve({ filter: SCHEME }, (args) => {
        const scheme = SCHEME.exec(args.path)![1]!.toLowerCase();
        if (scheme === 'https') return { path: new URL(args.path).href, namespace: REMOTE_NAMESPACE };
        if (scheme === 'file') {
          if (args.namespace === REMOTE_NAMESPACE) {
            return {
              errors: [{ text: `origin (${args.importer}) not allowed to load local file: ${args.path}` }],
            };
          }
          return { path: fileURLToPath(args.path) };
        }
        return {
          errors: [
            { text: `only supported schemes for imports are file and https, ${args.path} has \`${scheme}\`` },
          ],
        };
      });
      // Relative and root-relative imports inside a remote module are remote too.
      build.onResolve({ filter: /^\.{0,2}\//, namespace: REMOTE_NAMESPACE }, (args) => ({
        path: new URL(args.path, args.importer).href,
        namespace: REMOTE_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: REMOTE_NAMESPACE }, async (args) => {
        let text = cache.get(args.path);
        if (!text) cache.set(args.path, (text = fetchText(args.path)));
        try {
          return { contents: await text, loader: 'js' };
        } catch (err) {
          cache.delete(args.path);
          throw new Error(
            `The moduleSpecifier "${args.path}" couldn't be retrieved from the resolved url "${args.path}". ` +
              `Error : "${(err as Error).message}"`,
            { cause: err },
          );
        }
      });
    },
  };
}

/** GET with k6's `_k6=1` marker, then once without it (some servers dislike unknown parameters). */
async function fetchModule(url: string): Promise<string> {
  const marked = new URL(url);
  marked.searchParams.append('_k6', '1');
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
    // Node's fetch says only "fetch failed"; the reason (refused, DNS, certificate) is the cause.
    const cause = (err as { cause?: { message?: string; code?: string } }).cause;
    throw new Error(`Get "${url}": ${cause?.message ?? cause?.code ?? (err as Error).message}`, {
      cause: err,
    });
  }
  if (res.status === 404) throw new Error(`not found: ${url}`);
  if (res.status !== 200) throw new Error(`wrong status code (${res.status}) for: ${url}`);
  return res.text();
}
