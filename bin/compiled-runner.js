// The runner as plain JavaScript, so `loadlab run` starts without the TypeScript loader: tsx's
// loader thread and its transforms cost 0.5-1 s of every run's start on this host (bench:wall,
// runner/vu/README.md). runner/ and report/ are compiled file by file with esbuild into
// node_modules/.cache/loadlab-runner/<key>/ (the same layout, so paths relative to a module still
// hold; other files are symlinked), with the VU worker's bundle built once beside it. <key> hashes
// every file's path, size and mtime, so an edit to any source builds a new copy on the next run.
// The repository's npm workspaces (package.json `workspaces`, e.g. a package whose exports are .ts
// files) are compiled beside them, and the copy's own node_modules/<name> points to the compiled one.
// A copy is built in a temporary folder and renamed into place: concurrent runs never see half of
// one. Any failure returns undefined and the caller runs the sources through tsx as before;
// LOADLAB_FROM_SOURCES=1 asks for that.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
// The lab's dashboard beside the runner's workspaces (runner, k6-format); the services are not the runner's.
const SOURCE_DIRS = ['report'];
const NOT_RUNNER = new Set(['services']);

/** The workspace folders of the repository's package.json (plain folder names only). */
function workspaces() {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  const list = Array.isArray(pkg.workspaces) ? pkg.workspaces : (pkg.workspaces?.packages ?? []);
  return list.filter(
    (w) => typeof w === 'string' && /^[\w.-]+$/.test(w) && !NOT_RUNNER.has(w) && existsSync(join(REPO, w)),
  );
}

/** A workspace's package.json with its .ts exports pointing to the compiled .js files. */
function compiledPackageJson(dir) {
  const text = readFileSync(join(REPO, dir, 'package.json'), 'utf8');
  const pkg = JSON.parse(text);
  return { name: pkg.name, json: JSON.stringify(pkg).replace(/\.ts"/g, '.js"') };
}
const CACHE = join(REPO, 'node_modules', '.cache', 'loadlab-runner');
/** Copies kept: an older one may still serve a long run that imports a module late (k6/browser). */
const KEEP = 4;

function walk(dir, files) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

function keyOf(files) {
  const hash = createHash('sha1').update(`${process.version}\0${REPO}\0`);
  for (const file of [join(REPO, 'package.json'), join(REPO, 'package-lock.json'), ...files]) {
    const st = statSync(file);
    hash.update(`${relative(REPO, file)}\0${st.size}\0${st.mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function build(files, packages, target) {
  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  try {
    const { build: esbuild } = await import('esbuild');
    const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts'));
    await esbuild({
      entryPoints: sources,
      outdir: tmp,
      outbase: REPO,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'silent',
    });
    for (const file of files.filter((f) => !f.endsWith('.ts') && !f.endsWith('.test.js'))) {
      const to = join(tmp, relative(REPO, file));
      mkdirSync(dirname(to), { recursive: true });
      symlinkSync(file, to);
    }
    symlinkSync(join(REPO, 'package.json'), join(tmp, 'package.json'));
    for (const dir of packages) {
      const { name, json } = compiledPackageJson(dir);
      const pkgFile = join(tmp, dir, 'package.json');
      rmSync(pkgFile, { force: true });
      writeFileSync(pkgFile, json);
      const link = join(tmp, 'node_modules', ...name.split('/'));
      mkdirSync(dirname(link), { recursive: true });
      // Relative: the folder is renamed into place once built.
      symlinkSync(relative(dirname(link), join(tmp, dir)), link);
    }
    // The worker bundle from the TypeScript sources (esbuild inlines their const enums), built
    // once here instead of once per run (runner/vu/worker-code.ts).
    const { buildWorkerCode, WORKER_BUNDLE_FILE } = await import(
      pathToFileURL(join(tmp, 'runner', 'vu', 'worker-code.js')).href
    );
    writeFileSync(
      join(tmp, 'runner', 'vu', WORKER_BUNDLE_FILE),
      buildWorkerCode(join(REPO, 'runner', 'vu', 'worker.ts')),
    );
    // The VU isolate's bundle likewise (runner/vu/isolate-code.ts).
    const { buildIsolateCode, ISOLATE_BUNDLE_FILE } = await import(
      pathToFileURL(join(tmp, 'runner', 'vu', 'isolate-code.js')).href
    );
    writeFileSync(
      join(tmp, 'runner', 'vu', ISOLATE_BUNDLE_FILE),
      await buildIsolateCode(join(REPO, 'runner', 'vu'), 'ts'),
    );
    try {
      renameSync(tmp, target);
    } catch (error) {
      if (!statSync(target, { throwIfNoEntry: false })?.isDirectory()) throw error;
      rmSync(tmp, { recursive: true, force: true }); // another run built the same copy first
    }
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

function prune(keep) {
  const copies = readdirSync(CACHE)
    .filter((name) => name !== keep)
    .map((name) => ({ name, mtime: statSync(join(CACHE, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name, mtime } of copies.slice(KEEP - 1)) {
    // A temporary folder of a build still going is young: only old ones go.
    if (!name.includes('.tmp-') || Date.now() - mtime > 600_000)
      rmSync(join(CACHE, name), { recursive: true, force: true });
  }
}

/**
 * The compiled copy's root URL (ending in /: `new URL('runner/cli.js', root)`), or undefined to run
 * from the sources.
 */
export async function compiledRoot() {
  if (process.env.LOADLAB_FROM_SOURCES === '1') return undefined;
  try {
    const packages = workspaces();
    const files = [...SOURCE_DIRS, ...packages].flatMap((dir) => walk(join(REPO, dir), []));
    const target = join(CACHE, keyOf(files));
    if (!statSync(join(target, 'runner', 'cli.js'), { throwIfNoEntry: false })) {
      mkdirSync(CACHE, { recursive: true });
      await build(files, packages, target);
      prune(relative(CACHE, target));
    }
    return pathToFileURL(`${target}/`).href;
  } catch {
    return undefined;
  }
}
