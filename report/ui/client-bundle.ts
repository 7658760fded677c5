// The page's script: ui/client.js bundled with the formatting it imports (render/format.ts) into one
// IIFE, built once per process, for the self-contained HTML report and the live dashboard.
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

let built: string | undefined;

export function clientScript(): string {
  built ??= buildSync({
    entryPoints: [fileURLToPath(new URL('./client.js', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  }).outputFiles[0]!.text;
  return built;
}
