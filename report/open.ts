// Opening a file or URL in the desktop's browser, only where a desktop exists (never in CI or over SSH).
import { spawn } from 'node:child_process';

export function desktopOpener(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string | undefined {
  if (env.CI === 'true') return undefined;
  if (platform === 'darwin') return 'open';
  if (platform === 'win32') return undefined;
  return env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : undefined;
}

/** Starts the opener detached; resolves false when there is no desktop or the opener is missing. */
export function openInBrowser(target: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const opener = desktopOpener(env);
  if (!opener) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(opener, [target], { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
