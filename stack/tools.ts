// Runs the Debian linters the stack tests use (shellcheck, yamllint, promtool) and reports whether
// each is installed, so a test can skip with a clear reason instead of failing on a missing tool.
import { spawnSync } from 'node:child_process';

export function hasTool(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

export interface ToolResult {
  status: number | null;
  output: string;
}

export function runTool(command: string, args: string[]): ToolResult {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}
