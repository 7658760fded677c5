// What a `docker build` of the stack's Dockerfiles would see, worked out without a container engine:
// the files the build context sends (the Dockerfile's own .dockerignore) and the ones a stage COPYs
// from it. Tests use this to assemble an image's file set in a temp folder and run it there.
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

interface IgnoreRule {
  include: boolean;
  pattern: RegExp;
}

/** A .dockerignore pattern as a regex over slash-separated paths: `**` any depth, `*` one segment. */
function patternRegex(glob: string): RegExp {
  const body = glob
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .map((segment) =>
      segment === '**'
        ? '.*'
        : segment
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*'),
    )
    .join('/')
    .replace(/\.\*\//g, '(?:.*/)?');
  return new RegExp(`^${body}$`);
}

export function parseDockerignore(text: string): IgnoreRule[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      return { include, pattern: patternRegex(include ? line.slice(1) : line) };
    });
}

/**
 * Whether the build context holds `path` (relative, slash-separated). As in Docker, the last rule that
 * matches the path or one of its parent folders decides; no rule means the file is sent.
 */
export function inContext(path: string, rules: IgnoreRule[]): boolean {
  const segments = path.split('/');
  const candidates = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
  let included = true;
  for (const rule of rules) {
    if (candidates.some((candidate) => rule.pattern.test(candidate))) included = rule.include;
  }
  return included;
}

/** Sources of the `COPY` lines that read the build context (not `--from=` another stage), in order. */
export function contextCopySources(dockerfile: string): string[] {
  const sources: string[] = [];
  for (const line of dockerfile.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0]?.toUpperCase() !== 'COPY') continue;
    const args = words.slice(1);
    if (args.some((arg) => arg.startsWith('--from'))) continue;
    sources.push(...args.filter((arg) => !arg.startsWith('--')).slice(0, -1));
  }
  return sources;
}

function walk(root: string, path: string): string[] {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((name) => walk(root, path ? `${path}/${name}` : name));
}

/** Every file the Dockerfile's context COPY lines would put into the image (ignored files left out). */
export function copiedFiles(root: string, dockerfile: string, dockerignore: string): string[] {
  const rules = parseDockerignore(dockerignore);
  return contextCopySources(dockerfile)
    .filter((source) => existsSync(join(root, source)))
    .flatMap((source) => walk(root, source.replace(/\/+$/, '')))
    .map((file) => file.split(sep).join('/'))
    .filter((file) => inContext(file, rules));
}

/** Copies those files from `root` into `target`, keeping their relative paths. */
export function assemble(root: string, files: string[], target: string): void {
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(root, file), join(target, file));
  }
}
