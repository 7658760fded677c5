// `npm run pack:runner -- <folder>`: @loadlab/k6-format and @loadlab/runner packed as a user installs
// them, compiled JavaScript with type declarations (bin/runner-package.js stages each workspace), into
// <folder> as npm pack's tarballs. Prints each tarball's path; one line and exit 2 on bad usage.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { REPO, RUNNER_PACKAGES, stagePackage, walk } from '../bin/runner-package.js';
import { runCommand } from '../devkit/command.js';

/** The .d.ts of each staged package's modules, emitted by TypeScript from the workspace's sources. */
function emitDeclarations(stage: string): void {
  const roots = RUNNER_PACKAGES.map((dir) => join(REPO, dir, 'index.ts'));
  const program = ts.createProgram(roots, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: REPO,
    outDir: stage,
  });
  const result = program.emit();
  const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0)
    throw new Error(ts.formatDiagnostics(errors, ts.createCompilerHost({})).split('\n')[0]);
}

/** The relative imports of staged modules that name no staged file (a module left out of the package). */
export function missingImports(stage: string): string[] {
  const missing: string[] = [];
  const files = new Set(walk(stage));
  for (const file of files) {
    if (!file.endsWith('.js')) continue;
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = resolve(dirname(file), specifier!);
      if (!files.has(target)) missing.push(`${relative(stage, file)} -> ${specifier}`);
    }
  }
  return missing;
}

/** Stages every runner package in a temporary folder, packs each into `destination`, returns the tarballs. */
export async function packRunner(destination: string): Promise<string[]> {
  const stage = mkdtempSync(join(tmpdir(), 'loadlab-pack-'));
  try {
    for (const dir of RUNNER_PACKAGES) await stagePackage(dir, join(stage, dir));
    emitDeclarations(stage);
    const missing = missingImports(stage);
    if (missing.length > 0) throw new Error(`modules left out of the package: ${missing.join(', ')}`);
    mkdirSync(destination, { recursive: true });
    const tarballs: string[] = [];
    for (const dir of RUNNER_PACKAGES) {
      const packed = await runCommand('npm', ['pack', '--json', '--pack-destination', destination], {
        cwd: join(stage, dir),
        env: process.env,
        timeoutMs: 120_000,
      });
      if (packed.code !== 0) throw new Error(`npm pack in ${dir}: ${packed.stderr.trim()}`);
      const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
      tarballs.push(join(destination, filename));
    }
    return tarballs;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(REPO, 'scripts/pack-runner.ts')) {
  const [destination, ...rest] = process.argv.slice(2);
  if (!destination || rest.length > 0) {
    process.stderr.write('usage: npm run pack:runner -- <folder for the tarballs>\n');
    process.exit(2);
  }
  try {
    const tarballs = await packRunner(resolve(destination));
    writeFileSync(1, tarballs.map((t) => `${t}\n`).join(''));
  } catch (error) {
    process.stderr.write(`pack:runner: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
