// @loadlab/runner and @loadlab/k6-format as the npm packages a user installs: each workspace's
// TypeScript compiled file by file to JavaScript (same layout, so paths relative to a module hold),
// its other files as they are, and the published manifest made from the workspace's own package.json.
// scripts/pack-runner.ts packs them into tarballs; bin/compiled-runner.js builds the lab's compiled
// copy from the same files and manifests, so the lab's `loadlab` runs what a user installs.
// Plain JavaScript: bin/compiled-runner.js loads it before any TypeScript loader.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));

/** The workspaces the runner ships as, each before the packages that depend on it. */
export const RUNNER_PACKAGES = ['k6-format', 'runner'];

/** Dependencies only the TypeScript sources need: the package is compiled, tsx never runs in it. */
const SOURCES_ONLY = new Set(['tsx']);

/** Files of a workspace that are the project's own tooling or tests, not the package. */
const NOT_SHIPPED = [
  /\.test\.ts$/,
  /(^|\/)testing\//,
  /(^|\/)fixtures\//,
  /(^|\/)test-support\.ts$/,
  /\.md$/,
];

/** The package's README for its users (the workspace's README.md is the developers'). */
export const PACKAGE_README = 'README.package.md';

/** Every file under `dir` (absolute paths), node_modules aside. */
export function walk(dir, files = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') walk(path, files);
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** The files of workspace `dir` that make its package (absolute paths; its package.json aside). */
export function shippedFiles(dir) {
  const root = join(REPO, dir, sep); // walk's paths start with it: sliced, not path.relative (~3 ms a start)
  return walk(root).filter((file) => {
    const path = file.slice(root.length).split(sep).join('/');
    return path !== 'package.json' && !NOT_SHIPPED.some((pattern) => pattern.test(path));
  });
}

/** A TypeScript source that becomes JavaScript (declarations are copied as they are). */
export const isSource = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts');

/** Compiles `sources` file by file into `outdir`, keeping their layout under `outbase`. */
export async function compileSources(sources, outdir, outbase) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: sources,
    outdir,
    outbase,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
}

/**
 * Modules of a package bundled, with what they import from the package, into one file each under
 * BUNDLE_DIR: Node reads, compiles and links the runner's 100-odd modules in 100-150 ms at every
 * start, one file with the same code in about 60 ms less. Packages stay imported (`packages:
 * external`), and lazy imports become chunks that load when they did.
 */
export const BUNDLED_ENTRIES = { runner: ['index.js', 'bin/run-command-line.js'] };
export const BUNDLE_DIR = 'bundle';

/** A module's `import.meta.url`, written in the bundle as an expression that still names the module's own file. */
function ownUrlPlugin(bundleDir) {
  return {
    name: 'loadlab-own-url',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        // Relative: a copy is built in a temporary folder and renamed into place (compiled-runner.js).
        const own = relative(bundleDir, args.path).split(sep).join('/');
        return {
          contents: text.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(own)}, import.meta.url).href`,
          ),
          loader: 'js',
        };
      });
    },
  };
}

/** BUNDLED_ENTRIES of the package staged in `target` (compiled), into `target`/BUNDLE_DIR. */
async function bundleEntries(target, entries) {
  const { build } = await import('esbuild');
  const outdir = join(target, BUNDLE_DIR);
  await build({
    entryPoints: entries.map((entry) => join(target, entry)),
    outdir,
    entryNames: '[name]',
    bundle: true,
    splitting: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [ownUrlPlugin(outdir)],
  });
}

/** `./index.ts` -> `{ types: './index.d.ts', default: './index.js' }`, through nested conditions. */
function compiledExports(exports) {
  if (typeof exports === 'string')
    return exports.endsWith('.ts')
      ? { types: exports.replace(/\.ts$/, '.d.ts'), default: exports.replace(/\.ts$/, '.js') }
      : exports;
  return Object.fromEntries(Object.entries(exports).map(([key, value]) => [key, compiledExports(value)]));
}

function readManifest(dir) {
  return JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8'));
}

/**
 * The manifest npm publishes for workspace `dir`: exports to the compiled .js (with their .d.ts),
 * the other runner packages at their own versions, the sources-only dependencies left out, the
 * package's install scripts (its `packageScripts`), no `private` and no development fields.
 */
export function publishedManifest(dir, files) {
  const source = readManifest(dir);
  const versions = Object.fromEntries(
    RUNNER_PACKAGES.map((d) => readManifest(d)).map((pkg) => [pkg.name, pkg.version]),
  );
  const dependencies = Object.fromEntries(
    Object.entries(source.dependencies ?? {})
      .filter(([name]) => !SOURCES_ONLY.has(name))
      .map(([name, range]) => [name, versions[name] ?? range]),
  );
  const {
    private: _private,
    scripts: _scripts,
    devDependencies: _dev,
    packageScripts,
    exports,
    ...kept
  } = source;
  return {
    ...kept,
    exports: compiledExports(exports),
    ...(packageScripts ? { scripts: packageScripts } : {}),
    dependencies,
    files,
  };
}

/** npm's `files` for a package of these sources: their compiled modules and declarations, the rest by kind. */
function filesField(files) {
  const kinds = files.map((file) => (isSource(file) ? '.js' : /(\.d\.ts|\.[^./]+)$/.exec(file)?.[1]));
  return [...new Set(['.js', '.d.ts', ...kinds.filter(Boolean)])].map((kind) => `**/*${kind}`);
}

/**
 * Workspace `dir` as its package in `target` (made): compiled sources, its other files, its README
 * for users and the repository's licence, and the published manifest listing what is there.
 */
export async function stagePackage(dir, target) {
  const root = join(REPO, dir);
  const files = shippedFiles(dir);
  mkdirSync(target, { recursive: true });
  await compileSources(files.filter(isSource), target, root);
  for (const file of files.filter((f) => !isSource(f))) {
    const to = join(target, relative(root, file));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(file, to);
  }
  if (BUNDLED_ENTRIES[dir]) await bundleEntries(target, BUNDLED_ENTRIES[dir]);
  if (existsSync(join(root, PACKAGE_README)))
    copyFileSync(join(root, PACKAGE_README), join(target, 'README.md'));
  copyFileSync(join(REPO, 'LICENSE'), join(target, 'LICENSE'));
  writeFileSync(
    join(target, 'package.json'),
    `${JSON.stringify(publishedManifest(dir, filesField(files)), null, 2)}\n`,
  );
}
