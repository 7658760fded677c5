// The shared-isolate VU host's addon (vu_host.cc), built from its source with node-gyp the first time a
// Node line needs it, into a cache folder of its own (LOADLAB_NATIVE_CACHE, else ~/.cache/loadlab), one
// build per addon source and Node ABI; later runs load it at once. The build needs a C++ toolchain
// (scripts/setup.sh installs it) and node-gyp: npm's own (the npm beside this Node, or the one running
// this command) or the runner's.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The addon's functions (vu_host.cc's header says what each does). */
export interface VuHostAddon {
  group(options: { heapMb: number; code: string; filename: string; cache?: ArrayBuffer }): object;
  start(
    group: object,
    options: {
      data: unknown;
      receive: (kind: string, value: unknown, needsAnswer: boolean) => void;
    },
  ): object;
  answer(vu: object, ok: boolean, value: unknown): void;
  dispatch(vu: object, value: unknown): void;
  wake(vu: object): void;
  close(vu: object): void;
  codeCache(vu: object): void;
  terminate(vu: object): void;
  closeGroup(group: object): void;
  exiting(): void;
}

const SOURCES = ['binding.gyp', 'vu_host.cc'];
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Where this Node's build of the current source lives. */
function buildFolder(env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256');
  for (const file of SOURCES) hash.update(readFileSync(path.join(here, file)));
  const cache =
    env.LOADLAB_NATIVE_CACHE ?? path.join(env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'loadlab');
  const key = `${process.platform}-${process.arch}-abi${process.versions.modules}-${hash.digest('hex').slice(0, 12)}`;
  return path.join(cache, 'vu-host', key);
}

/** node-gyp's script: npm's (as npm names it to scripts, beside this Node, or the npm on PATH), else the runner's. */
function nodeGyp(env: NodeJS.ProcessEnv): string | undefined {
  const npmGyp = (npmRoot: string) => path.join(npmRoot, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const candidates = [
    env.npm_config_node_gyp,
    npmGyp(path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm')),
    ...(env.PATH ?? '').split(path.delimiter).map((dir) => {
      const npm = path.join(dir, 'npm');
      // npm's bin is a link to <npm>/bin/npm-cli.js
      return existsSync(npm) ? npmGyp(path.dirname(path.dirname(realpathSync(npm)))) : undefined;
    }),
  ];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    return undefined;
  }
}

/** Whether `dir` holds the headers of this very Node (node-gyp's --nodedir). */
function headersOfThisNode(dir: string): boolean {
  try {
    const header = readFileSync(path.join(dir, 'include', 'node', 'node_version.h'), 'utf8');
    const part = (name: string) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(header)?.[1];
    return `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}` === process.version;
  } catch {
    return false;
  }
}

/**
 * The headers to build against without a download: this Node's own (a Debian or a tarball install
 * ships them beside it), or npm's nodedir when it is this Node's (an npmrc's may be another Node's).
 */
function nodeDir(env: NodeJS.ProcessEnv): string | undefined {
  const candidates = [path.resolve(path.dirname(process.execPath), '..'), env.npm_config_nodedir];
  return candidates.find((dir) => dir !== undefined && headersOfThisNode(dir));
}

/**
 * The line of a failed build's output that says what failed: the compiler's first error, a tool not
 * found, make's failed target, else node-gyp's own account ("`make` failed with exit code: 2"),
 * which says little.
 */
export function buildFailure(output: string): string {
  const lines = output.split('\n').map((line) => line.trim());
  const own = lines.filter((line) => line !== '' && !line.startsWith('gyp '));
  const telling = own.find((line) => /\berror:|No such file or directory|not found/i.test(line));
  const make = own.find((line) => line.startsWith('make: ***'));
  const gyp = lines.find((line) => line.startsWith('gyp ERR! stack Error:'));
  return telling ?? make ?? gyp?.slice('gyp ERR! stack '.length) ?? own[0] ?? 'the build failed';
}

function run(file: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, maxBuffer: 16 << 20, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) {
        const output = `${String(stdout)}\n${String(stderr)}`;
        const tail = output.trim().split('\n').slice(-8).join('\n');
        reject(new Error(`${buildFailure(output)}\n${tail}`));
      } else resolve(stdout);
    });
  });
}

async function build(target: string, env: NodeJS.ProcessEnv): Promise<void> {
  const gyp = nodeGyp(env);
  if (!gyp) throw new Error('node-gyp was not found (it comes with npm)');
  await mkdir(path.dirname(target), { recursive: true });
  // Built beside the target and renamed into place: two processes building at once both succeed.
  const work = await mkdtemp(`${target}.building-`);
  try {
    for (const file of SOURCES) await copyFile(path.join(here, file), path.join(work, file));
    const dir = nodeDir(env);
    await run(process.execPath, [gyp, 'rebuild', ...(dir ? [`--nodedir=${dir}`] : [])], work);
    await rename(work, target).catch(async (error: NodeJS.ErrnoException) => {
      if (!existsSync(path.join(target, 'build', 'Release', 'vu_host.node'))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

let loading: Promise<VuHostAddon> | undefined;

/** The addon, built first when this Node has none of this source; rejects with why it cannot be had. */
export function loadVuHostAddon(env: NodeJS.ProcessEnv = process.env): Promise<VuHostAddon> {
  loading ??= (async () => {
    const folder = buildFolder(env);
    const file = path.join(folder, 'build', 'Release', 'vu_host.node');
    if (!existsSync(file)) await build(folder, env);
    const addon = require(file) as VuHostAddon;
    // VU threads left waiting end with the process; the addon's watchdog must stop touching isolates.
    process.once('exit', () => addon.exiting());
    return addon;
  })();
  return loading;
}
