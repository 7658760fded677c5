// The runner as plain JavaScript, so `loadlab run` starts without the TypeScript loader: tsx's
// loader thread and its transforms cost 0.5-1 s of every run's start on this host (bench:wall,
// runner/vu/README.md). @loadlab/runner and @loadlab/k6-format are staged as the packages a user
// installs (bin/runner-package.js: the same compiled files and published manifests npm pack gets)
// into node_modules/.cache/loadlab-runner/<key>/, and the lab's report/ is compiled file by file
// beside them (the same layout, so paths relative to a module still hold; its other files are
// symlinked), with the VU worker's bundle built once from the sources. <key> hashes every file's
// path, size and mtime, so an edit to any source builds a new copy on the next run. The copy's own
// node_modules/<name> points to each staged package.
// A copy is built in a temporary folder and renamed into place: concurrent runs never see half of
// one. Any failure returns undefined and the caller runs the sources through tsx as before;
// LOADLAB_FROM_SOURCES=1 asks for that.
import { createHash } from 'node:crypto';
import {
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
import {
  compileSources,
  isSource,
  REPO,
  RUNNER_PACKAGES,
  shippedFiles,
  stagePackage,
  walk,
} from './runner-package.js';

// The lab's dashboard, compiled beside the runner's packages.
const SOURCE_DIRS = ['report'];
const CACHE = join(REPO, 'node_modules', '.cache', 'loadlab-runner');
/** Copies kept: an older one may still serve a long run that imports a module late (k6/browser). */
const KEEP = 4;

const isTest = (file) => /\.test\.[jt]s$/.test(file);

function keyOf(files) {
  const hash = createHash('sha1').update(`${process.version}\0${REPO}\0`);
  // The builders too: a copy made by an older build (one without bundle/, say) is not reused.
  const builders = [fileURLToPath(import.meta.url), join(REPO, 'bin', 'runner-package.js')];
  for (const file of [join(REPO, 'package.json'), join(REPO, 'package-lock.json'), ...builders, ...files]) {
    const st = statSync(file);
    // Every file is under REPO, which ends with a separator (path.relative, called 500 times, took ~5 ms).
    hash.update(`${file.slice(REPO.length)}\0${st.size}\0${st.mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function build(labFiles, target) {
  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  try {
    await compileSources(labFiles.filter(isSource), tmp, REPO);
    for (const file of labFiles.filter((f) => !f.endsWith('.ts'))) {
      const to = join(tmp, relative(REPO, file));
      mkdirSync(dirname(to), { recursive: true });
      symlinkSync(file, to);
    }
    symlinkSync(join(REPO, 'package.json'), join(tmp, 'package.json'));
    for (const dir of RUNNER_PACKAGES) {
      await stagePackage(dir, join(tmp, dir));
      const { name } = JSON.parse(readFileSync(join(tmp, dir, 'package.json'), 'utf8'));
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
 * The compiled copy's root URL (ending in /: `new URL('runner/main.js', root)`), or undefined to run
 * from the sources.
 */
export async function compiledRoot() {
  if (process.env.LOADLAB_FROM_SOURCES === '1') return undefined;
  try {
    // What a copy is built from, not the tests beside it: each file is stat'ed at every start.
    const labFiles = SOURCE_DIRS.flatMap((dir) => walk(join(REPO, dir))).filter((f) => !isTest(f));
    const packageFiles = RUNNER_PACKAGES.flatMap((dir) => [
      join(REPO, dir, 'package.json'),
      ...shippedFiles(dir),
    ]);
    const target = join(CACHE, keyOf([...labFiles, ...packageFiles]));
    if (!statSync(join(target, 'runner', 'main.js'), { throwIfNoEntry: false })) {
      mkdirSync(CACHE, { recursive: true });
      await build(labFiles, target);
      prune(relative(CACHE, target));
    }
    return pathToFileURL(`${target}/`).href;
  } catch {
    return undefined;
  }
}
