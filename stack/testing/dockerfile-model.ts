// A Dockerfile read the way `docker build` runs it, without a container engine: stages with their ARGs
// expanded, and each stage's filesystem followed instruction by instruction from the base image's known
// layout, so a RUN that writes into a folder nothing created (xk6's `--output /out/k6`), a COPY --from of a
// path the other stage never made, or a command the model does not know, is reported with its line.
import { posix } from 'node:path';

export interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** Instructions with their continuation lines joined, comments and parser directives left out. */
export function instructions(text: string): Instruction[] {
  const result: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const start = i;
    let line = lines[i]!;
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) {
      i += 1;
      // A comment line inside a continued instruction is dropped by the parser, as Docker does.
      if (/^\s*#/.test(lines[i]!)) {
        line = `${line.slice(0, -1)} \\`;
        continue;
      }
      line = `${line.slice(0, -1)} ${lines[i]!.trim()}`;
    }
    const match = /^\s*(\w+)\s+(.*)$/.exec(line);
    if (match) result.push({ line: start + 1, keyword: match[1]!.toUpperCase(), args: match[2]!.trim() });
  }
  return result;
}

function expand(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced?: string, bare?: string) => {
    const name = braced ?? bare!;
    return name in vars ? vars[name]! : whole;
  });
}

/** The stages, with the ARGs declared before the first FROM expanded into each FROM line. */
export function stages(text: string, buildArgs: Record<string, string> = {}): Stage[] {
  const globalArgs: Record<string, string> = {};
  const result: Stage[] = [];
  for (const instruction of instructions(text)) {
    if (instruction.keyword === 'ARG' && result.length === 0) {
      const [name, value = ''] = instruction.args.split('=', 2) as [string, string?];
      globalArgs[name] = buildArgs[name] ?? value;
      continue;
    }
    if (instruction.keyword === 'FROM') {
      const [image, , name] = expand(instruction.args, globalArgs).split(/\s+/);
      result.push({ name: name ?? String(result.length), base: image!, instructions: [] });
      continue;
    }
    result.at(-1)?.instructions.push(instruction);
  }
  return result;
}

/**
 * What a base image is known to hold (folders and files a RUN may rely on), by image family. From each
 * image's own Dockerfile: golang's WORKDIR $GOPATH (/go, with /go/bin on PATH), node's `node` user and
 * home, alpine's FHS tree.
 */
const ALPINE_DIRS = [
  '/',
  '/bin',
  '/etc',
  '/home',
  '/root',
  '/tmp',
  '/usr',
  '/usr/bin',
  '/usr/local',
  '/usr/local/bin',
  '/usr/lib',
  '/var',
];
const BASE_IMAGES: Array<{ pattern: RegExp; dirs: string[]; users: string[]; workdir: string }> = [
  {
    pattern: /^golang:[\w.-]*alpine/,
    dirs: [...ALPINE_DIRS, '/go', '/go/bin', '/go/src', '/usr/local/go'],
    users: ['root'],
    workdir: '/go',
  },
  {
    pattern: /^node:[\w.-]*alpine/,
    dirs: [...ALPINE_DIRS, '/home/node', '/usr/local/lib/node_modules'],
    users: ['root', 'node'],
    workdir: '/',
  },
  { pattern: /^alpine:/, dirs: ALPINE_DIRS, users: ['root'], workdir: '/' },
];

/** Files that commands of the project's own build create, relative to the folder they run in. */
const NPM_OUTPUTS: Record<string, { needs: string[]; makes: string[] }> = {
  ci: { needs: ['package.json', 'package-lock.json'], makes: ['node_modules'] },
  'run build:k6': {
    needs: ['package.json', 'node_modules', 'scripts/build-k6.ts', 'k6'],
    makes: ['dist', 'dist/k6'],
  },
};

/** Files that Alpine packages the images install put on disk, where a later step relies on them. */
const APK_FILES: Record<string, string[]> = {
  chromium: ['/usr/bin/chromium-browser', '/usr/lib/chromium'],
  'chromium-swiftshader': ['/usr/bin/chromium-browser', '/usr/lib/chromium'],
};

export interface StageState {
  paths: Set<string>;
  users: Set<string>;
  env: Record<string, string>;
  workdir: string;
  user: string;
}

export interface Problem {
  stage: string;
  line: number;
  message: string;
}

/** Filesystem state after every stage, and the problems a build would hit. */
export function simulate(
  text: string,
  contextFiles: string[],
  buildArgs: Record<string, string> = {},
): { states: Map<string, StageState>; problems: Problem[] } {
  const states = new Map<string, StageState>();
  const problems: Problem[] = [];
  for (const stage of stages(text, buildArgs)) {
    const fail = (line: number, message: string) => problems.push({ stage: stage.name, line, message });
    const from = states.get(stage.base);
    const known = BASE_IMAGES.find((image) => image.pattern.test(stage.base));
    let state: StageState;
    if (from) {
      state = { ...from, paths: new Set(from.paths), users: new Set(from.users), env: { ...from.env } };
    } else if (known) {
      state = {
        paths: new Set(known.dirs),
        users: new Set(known.users),
        env: {},
        workdir: known.workdir,
        user: 'root',
      };
    } else {
      fail(0, `base image ${stage.base} has no known layout`);
      continue;
    }
    const args: Record<string, string> = {};
    const vars = () => ({ ...state.env, ...args });
    const abs = (path: string) => posix.resolve(state.workdir, path);
    const has = (path: string) => state.paths.has(abs(path));
    const add = (path: string) => {
      for (let p = abs(path); ; p = posix.dirname(p)) {
        state.paths.add(p);
        if (p === '/') break;
      }
    };
    const needParent = (line: number, path: string, what: string) => {
      if (!has(posix.dirname(abs(path))))
        fail(line, `${what} writes ${abs(path)}, but ${posix.dirname(abs(path))} does not exist`);
    };
    for (const { line, keyword, args: raw } of stage.instructions) {
      const text = expand(raw, vars());
      switch (keyword) {
        case 'ARG': {
          const [name, value = ''] = raw.split('=', 2) as [string, string?];
          args[name] = buildArgs[name] ?? value;
          break;
        }
        case 'ENV':
          for (const [, name, value] of text.matchAll(/(\w+)=("[^"]*"|\S*)/g))
            state.env[name!] = value!.replace(/^"|"$/g, '');
          break;
        case 'WORKDIR':
          state.workdir = abs(text);
          add(state.workdir);
          break;
        case 'USER':
          if (!state.users.has(text.split(':')[0]!) && !/^\d+(:\d+)?$/.test(text))
            fail(line, `USER ${text} does not exist`);
          state.user = text;
          break;
        case 'COPY': {
          const words = text.split(/\s+/);
          const fromStage = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
          const operands = words.filter((w) => !w.startsWith('--'));
          const dest = operands.pop()!;
          const destIsDir = dest.endsWith('/') || operands.length > 1;
          for (const source of operands) {
            const sourceFiles = fromStage
              ? copyFromStage(states.get(fromStage), source)
              : contextFiles.filter(
                  (f) => f === source.replace(/\/$/, '') || f.startsWith(`${source.replace(/\/$/, '')}/`),
                );
            if (sourceFiles === undefined) fail(line, `COPY --from=${fromStage}: no such stage`);
            else if (sourceFiles.length === 0)
              fail(line, `COPY ${fromStage ? `--from=${fromStage} ` : ''}${source}: not there`);
            else {
              const root = fromStage ? source.replace(/\/$/, '') : source.replace(/\/$/, '');
              for (const file of sourceFiles) {
                const rest = file === root ? '' : file.slice(root.length + 1);
                const target = destIsDir
                  ? posix.join(abs(dest), rest || posix.basename(root))
                  : posix.join(abs(dest), rest);
                add(target);
              }
            }
          }
          break;
        }
        case 'RUN':
          // RUN's own flags (--mount, --network, --security) come before the command; a cache mount's
          // folder is BuildKit's and never part of the stage's files.
          for (const command of shellCommands(runFlags(text).command))
            runCommand(command, line, { state, has, add, abs, needParent, fail });
          break;
        default:
          break;
      }
    }
    states.set(stage.name, state);
  }
  return { states, problems };
}

function copyFromStage(state: StageState | undefined, source: string): string[] | undefined {
  if (!state) return undefined;
  const root = source.replace(/\/$/, '');
  return [...state.paths].filter((p) => p === root || p.startsWith(`${root}/`));
}

/** A RUN line's BuildKit flags (`--mount=type=cache,target=/x`) and the shell command after them. */
export function runFlags(run: string): { flags: string[]; command: string } {
  const flags: string[] = [];
  let rest = run.trimStart();
  for (let flag = /^--[\w-]+=\S+\s+/.exec(rest); flag; flag = /^--[\w-]+=\S+\s+/.exec(rest)) {
    flags.push(flag[0].trim());
    rest = rest.slice(flag[0].length);
  }
  return { flags, command: rest };
}

/** The simple commands of a RUN line: split on `&&`, `||`, `;` and `|`, leading VAR=value words dropped. */
export function shellCommands(run: string): string[][] {
  return run
    .split(/&&|\|\||;|\|/)
    .map((part) =>
      part
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((w) => w.replace(/^["']|["']$/g, '')),
    )
    .map((words) => {
      while (words[0] && /^\w+=/.test(words[0])) words.shift();
      return words;
    })
    .filter((words) => words.length > 0);
}

interface RunContext {
  state: StageState;
  has(path: string): boolean;
  add(path: string): void;
  abs(path: string): string;
  needParent(line: number, path: string, what: string): void;
  fail(line: number, message: string): void;
}

function flagValue(words: string[], long: string, short?: string): string | undefined {
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === long || (short && word === short)) return words[i + 1];
    if (word.startsWith(`${long}=`)) return word.slice(long.length + 1);
  }
  return undefined;
}

function runCommand(words: string[], line: number, run: RunContext): void {
  const [command, ...rest] = words as [string, ...string[]];
  const redirect = rest.findIndex((w) => w === '>' || w === '>>');
  if (redirect >= 0 && rest[redirect + 1] && rest[redirect + 1] !== '/dev/null') {
    run.needParent(line, rest[redirect + 1]!, `${command} > `);
    run.add(rest[redirect + 1]!);
  }
  switch (command) {
    case 'mkdir': {
      const parents = rest.includes('-p');
      for (const path of rest.filter((w) => !w.startsWith('-'))) {
        if (!parents) run.needParent(line, path, 'mkdir');
        run.add(path);
      }
      return;
    }
    case 'chown':
    case 'chmod':
      for (const path of rest.filter((w) => !w.startsWith('-')).slice(1)) {
        if (!run.has(path)) run.fail(line, `${command} ${path}: no such file or directory`);
      }
      return;
    case 'adduser': {
      const user = rest.filter((w) => !w.startsWith('-')).at(-1)!;
      run.state.users.add(user);
      const home = flagValue(rest, '-h') ?? `/home/${user}`;
      // BusyBox adduser makes the home folder unless -H says not to.
      if (!rest.includes('-H') && !rest.some((w) => /^-\w*H/.test(w))) run.add(home);
      return;
    }
    case 'apk':
      for (const pkg of rest.filter((w) => !w.startsWith('-') && w !== 'add')) {
        for (const file of APK_FILES[pkg.split('=')[0]!] ?? []) run.add(file);
      }
      return;
    case 'go':
      if (rest[0] === 'install') {
        const module = rest.find((w) => w.includes('@'))!;
        run.add(`/go/bin/${posix.basename(module.split('@')[0]!)}`);
      } else if (rest[0] === 'build') {
        const out = flagValue(rest, '-o');
        if (out) {
          run.needParent(line, out, 'go build -o');
          run.add(out);
        }
      }
      return;
    case 'xk6': {
      if (!run.has('/go/bin/xk6') && !run.has('/usr/local/bin/xk6'))
        run.fail(line, 'xk6 is not installed in this stage');
      // xk6 build opens its output with O_CREATE only: the folder must already be there.
      const out = flagValue(rest, '--output', '-o') ?? 'k6';
      run.needParent(line, out, 'xk6 build --output');
      run.add(out);
      return;
    }
    case 'npm': {
      const sub = rest[0] === 'run' ? `run ${rest[1]}` : rest[0]!;
      if (sub === 'cache') return;
      const known = NPM_OUTPUTS[sub];
      if (!known) return run.fail(line, `npm ${sub}: the model does not know what it writes`);
      for (const need of known.needs) if (!run.has(need)) run.fail(line, `npm ${sub} needs ${run.abs(need)}`);
      for (const made of known.makes) run.add(made);
      return;
    }
    default:
      run.fail(
        line,
        `${command}: the model does not know what it writes; teach stack/testing/dockerfile-model.ts`,
      );
  }
}
