// Which files are test code, decided by the test tiers themselves rather than by file names: the files
// `npm run test:unit` and `npm run test:e2e` run (their globs in package.json), what they --require, and
// every module that only test code imports or starts (startScript('.../echo-server.ts')), unless
// something else runs it: an entry point named by a package.json, a shell script, a Dockerfile or a
// workflow, a path that shipped code names, or an entry the rules name. Everything else is held to the
// shipped-code rules of .dependency-cruiser.cjs. Synchronous: the rules' config needs it.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join, posix } = require('node:path');

const SKIPPED = new Set(['node_modules', 'dist', 'results', '.git']);
const SOURCE = /\.(ts|js|mjs|cjs)$/;

/**
 * A glob of the tiers (`**\/*.test.ts`, `.github/**\/*.test.ts`) as an anchored regular expression, as
 * mocha's glob reads it: a wildcard never matches a name that starts with a dot (`.github/`).
 */
function globToRegExp(glob) {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    const segmentStart = i === 0 || glob[i - 1] === '/';
    if (glob.startsWith('**/', i)) {
      out += '(?:[^./][^/]*/)*';
      i += 2;
    } else if (c === '*') out += segmentStart ? '(?!\\.)[^/]*' : '[^/]*';
    else out += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** The spec globs, ignores and --require files of one npm script that runs mocha. */
function mochaArgs(command) {
  const tokens = command.match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
  const tier = { specs: [], ignores: [], requires: [] };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i].replace(/^['"]|['"]$/g, '');
    const previous = tokens[i - 1];
    if (previous === '--ignore') tier.ignores.push(token);
    else if (previous === '--require') tier.requires.push(token);
    else if (token.includes('*')) tier.specs.push(token);
  }
  return tier;
}

/** The unit and e2e tiers as package.json runs them. */
function testTiers(root) {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return { unit: mochaArgs(scripts['test:unit'] ?? ''), e2e: mochaArgs(scripts['test:e2e'] ?? '') };
}

/** Whether a repository path is a spec file of the tier. */
function runsIn(tier, path) {
  const matches = (globs) => globs.some((glob) => globToRegExp(glob).test(path));
  return matches(tier.specs) && !matches(tier.ignores);
}

function sourceFiles(root, folder = '') {
  const out = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...sourceFiles(root, path));
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

/** The workspace packages by name: `@loadlab/runner` -> `runner`. */
function workspaces(root) {
  const { workspaces: folders = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const byName = new Map();
  for (const folder of folders) {
    const file = join(root, folder, 'package.json');
    if (existsSync(file)) byName.set(JSON.parse(readFileSync(file, 'utf8')).name, folder);
  }
  return byName;
}

/** The repository file a specifier names, if it is one: relative, a workspace package, or a path. */
function resolveSpecifier(specifier, from, files, packages) {
  const candidates = [];
  const pkg = /^(@loadlab\/[^/]+)(?:\/(.+))?$/.exec(specifier);
  if (pkg && packages.has(pkg[1])) {
    const folder = packages.get(pkg[1]);
    candidates.push(pkg[2] ? `${folder}/${pkg[2]}` : `${folder}/index.ts`);
  } else if (specifier.startsWith('.')) {
    candidates.push(posix.join(posix.dirname(from), specifier));
  } else if (/\.[cm]?[jt]s$/.test(specifier)) {
    // A script a test starts by its path: from the repository, or beside the test.
    candidates.push(posix.normalize(specifier), posix.join(posix.dirname(from), posix.basename(specifier)));
  }
  for (const base of candidates)
    for (const path of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`])
      if (files.has(path)) return path;
  return undefined;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
const PATH_LITERAL = /['"]([^'"\s]+\.[cm]?[jt]s)['"]/g;

const RUNNERS = /(^|\/)(package\.json|[^/]*\.sh|[^/]*Dockerfile|[^/]*\.ya?ml)$/;
const PATH_TOKEN = /[\w.@/-]+\.[cm]?[jt]s\b/g;

/** Files something other than an import runs: named by package.json files, shell scripts, Dockerfiles, workflows. */
function runByTools(root, files) {
  const named = new Set();
  const texts = [];
  const walk = (folder) => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (RUNNERS.test(path)) texts.push(path);
    }
  };
  walk('');
  for (const path of texts) {
    const base = posix.dirname(path);
    for (const [token] of readFileSync(join(root, path), 'utf8').matchAll(PATH_TOKEN)) {
      const clean = token.replace(/^\.\//, '');
      for (const candidate of [clean, posix.join(base, clean), clean.replace(/\.js$/, '.ts')])
        if (files.has(candidate)) named.add(candidate);
    }
  }
  return named;
}

/**
 * Every test-code file of the repository at `root`, as repository paths, sorted. `entries`: files (or
 * folders, ending in /) run through computed imports the scan cannot see, never test code.
 */
function testCode(root, entries = []) {
  const tiers = testTiers(root);
  const list = sourceFiles(root);
  const files = new Set(list);
  const packages = workspaces(root);
  const test = new Set(list.filter((path) => runsIn(tiers.unit, path) || runsIn(tiers.e2e, path)));
  for (const required of [...tiers.unit.requires, ...tiers.e2e.requires])
    if (files.has(required)) test.add(required);
  const entryPoints = runByTools(root, files);
  for (const entry of entries)
    for (const path of list)
      if (entry.endsWith('/') ? path.startsWith(entry) : path === entry) entryPoints.add(path);
  const importers = new Map();
  for (const from of list) {
    const text = readFileSync(join(root, from), 'utf8');
    const imported = [...text.matchAll(IMPORT)].map((m) => m[1]);
    // A path a test names is a child it starts; one that other code names, an entry point it runs.
    const named = [...text.matchAll(PATH_LITERAL)].map((m) => m[1]).filter((n) => !imported.includes(n));
    for (const specifier of test.has(from) ? [...imported, ...named] : imported) {
      const to = resolveSpecifier(specifier, from, files, packages);
      if (to && to !== from) (importers.get(to) ?? importers.set(to, new Set()).get(to)).add(from);
    }
    if (!test.has(from))
      for (const specifier of named) {
        const to = resolveSpecifier(specifier, from, files, packages);
        if (to && to !== from) entryPoints.add(to);
      }
  }
  // A module belongs to the tests when everything that imports or starts it is a test or a benchmark
  // (benchmarks measure, they ship nothing), and nothing else runs it.
  const onTheTestSide = (from) => test.has(from) || from.startsWith('bench/');
  for (let grew = true; grew;) {
    grew = false;
    for (const [module, by] of importers)
      if (!test.has(module) && !entryPoints.has(module) && [...by].every(onTheTestSide)) {
        test.add(module);
        grew = true;
      }
  }
  return [...test].sort();
}

module.exports = { testCode, testTiers, runsIn, globToRegExp, sourceFiles };
