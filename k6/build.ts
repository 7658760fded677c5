// `npm run build:k6`: bundles every scenario and journey of the suite with esbuild, one file per
// script at dist/k6/<same path>.js (k6 modules left as imports, source maps beside), then type-checks
// the suite against @types/k6. k6 runs the bundles as they are; so does the Node runner.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const SUITE_DIR = 'k6';
const OUT_DIR = 'dist/k6';
const ENTRY_DIRS = ['scenarios', 'journeys'];

/** Every script a user can run: .ts files under k6/scenarios and k6/journeys, tests excluded. */
export function suiteEntryPoints(root = SUITE_DIR): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
    }
  };
  for (const dir of ENTRY_DIRS) walk(join(root, dir));
  return found.sort();
}

export async function bundleSuite(entryPoints: string[], outdir = OUT_DIR): Promise<string[]> {
  const result = await build({
    entryPoints,
    outbase: SUITE_DIR,
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    // k6 resolves its own modules at run time; bundling them would fail or shadow them.
    external: ['k6', 'k6/*'],
    sourcemap: true,
    logLevel: 'silent',
    metafile: true,
  });
  return Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
}

/** One `build:k6: file:line: message` line per esbuild error (or the error itself when it is not esbuild's). */
export function formatBuildError(error: unknown): string[] {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] })
    .errors;
  if (!errors?.length) return [`build:k6: ${error instanceof Error ? error.message : String(error)}`];
  return errors.map(
    (e) => `build:k6: ${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`,
  );
}

/** What `npm run build:k6` does. */
export async function buildSuiteCommand(): Promise<void> {
  const entries = suiteEntryPoints();
  let outputs: string[];
  try {
    outputs = await bundleSuite(entries);
  } catch (error) {
    for (const line of formatBuildError(error)) console.error(line);
    process.exit(1);
  }
  console.log(`build:k6: bundled ${outputs.length} scripts into ${relative('.', OUT_DIR)}/`);
  const tsc = spawnSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'k6/tsconfig.json'],
    {
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) {
    console.error('build:k6: type errors in the suite (see above)');
    process.exit(1);
  }
}
