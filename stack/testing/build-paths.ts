// Where a compose service's image is built from, worked out as each tool does it, without a container
// engine: `docker compose build` and `docker buildx bake -f <compose file>` read the same `build:` keys
// but resolve them from different folders, so a file that builds with one can fail with the other.
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface ComposeBuild {
  context?: string;
  dockerfile?: string;
}

export interface BuildPaths {
  /** The build context's folder, absolute. */
  context: string;
  /** The Dockerfile, absolute. */
  dockerfile: string;
}

/**
 * `docker compose build`: a relative `context` is read from the project folder, which is the folder of the
 * first compose file given with -f (compose-spec build.md, "context": "a relative path is resolved from
 * the Compose file's parent folder"; compose-go's loader rebases it so), default "."; a relative
 * `dockerfile` is read from the context (build.md, "dockerfile": "relative path is resolved from the
 * build context"), default "Dockerfile".
 */
export function composeBuildPaths(composeFile: string, build: ComposeBuild): BuildPaths {
  const context = resolve(dirname(composeFile), build.context ?? '.');
  return { context, dockerfile: resolve(context, build.dockerfile ?? 'Dockerfile') };
}

export interface BakeInvocation {
  /** The folder bake runs in, absolute. */
  cwd: string;
  /** The compose file given with -f, absolute (the first one, where several are given). */
  composeFile: string;
  /** BUILDX_BAKE_FILE_RELATIVE_PATHS as bake sees it, if set. */
  fileRelativePaths?: string;
  /** The buildx release, as `docker buildx version` prints it (v0.36.1); unknown when not given. */
  buildxVersion?: string;
}

/** The first buildx release with the BUILDX_BAKE_FILE_RELATIVE_PATHS opt-in (docker/buildx b38d1004e). */
export const FILE_RELATIVE_PATHS_SINCE = 'v0.36.0';

function atLeast(version: string, floor: string): boolean {
  const parts = (v: string) => v.replace(/^v/, '').split(/[.-]/).slice(0, 3).map(Number);
  const [a, b] = [parts(version), parts(floor)];
  for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * `docker buildx bake -f <compose file>`, as docker/buildx v0.36.1 reads it:
 * - bake/compose.go ParseCompose takes the service's context as written (`contextPath :=
 *   s.Build.Context`) and its dockerfile as written (`dockerfilePath := s.Build.Dockerfile`); the compose
 *   loader is not asked to rebase them;
 * - bake/bake.go toBuildOpt defaults the context to "." and the dockerfile to "Dockerfile", and joins a
 *   relative dockerfile to the context (`bi.DockerfilePath = filepath.Join(bi.ContextPath,
 *   bi.DockerfilePath)`); a relative context is then opened from the process's working folder;
 * - only with BUILDX_BAKE_FILE_RELATIVE_PATHS=1 (commands/bake.go, from v0.36.0) is a compose file's
 *   context rebased on the first compose file's folder (compose.go setComposeContextBase; docs/
 *   bake-reference.md "target.context"). An older buildx ignores the variable.
 */
export function bakeBuildPaths(invocation: BakeInvocation, build: ComposeBuild): BuildPaths {
  const optIn = ['1', 'true'].includes((invocation.fileRelativePaths ?? '').toLowerCase());
  const honoured =
    optIn &&
    invocation.buildxVersion !== undefined &&
    atLeast(invocation.buildxVersion, FILE_RELATIVE_PATHS_SINCE);
  const base = honoured ? dirname(invocation.composeFile) : invocation.cwd;
  const context = resolve(base, build.context ?? '.');
  const dockerfile = build.dockerfile ?? 'Dockerfile';
  return { context, dockerfile: isAbsolute(dockerfile) ? dockerfile : join(context, dockerfile) };
}
