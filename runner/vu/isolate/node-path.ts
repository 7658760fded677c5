// node:path (POSIX) for the VU's code in an isolate: the functions the runner's VU code calls.
import { host } from './host.js';

export const sep = '/';

export function isAbsolute(p: string): boolean {
  return p.startsWith('/');
}

export function normalize(p: string): string {
  const absolute = isAbsolute(p);
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(part);
  }
  const joined = out.join('/');
  const normalized = absolute ? `/${joined}` : joined === '' ? '.' : joined;
  // As Node's, a trailing slash stays.
  return p.endsWith('/') && normalized !== '/' ? `${normalized}/` : normalized;
}

export function join(...parts: string[]): string {
  const joined = parts.filter((p) => p !== '').join('/');
  return joined === '' ? '.' : normalize(joined);
}

export function resolve(...parts: string[]): string {
  let resolved = '';
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(resolved); i--) {
    const part = parts[i]!;
    if (part !== '') resolved = resolved === '' ? part : `${part}/${resolved}`;
  }
  if (!isAbsolute(resolved)) resolved = `${host.cwd}/${resolved}`;
  const out = normalize(resolved);
  return out.length > 1 && out.endsWith('/') ? out.slice(0, -1) : out;
}

export function dirname(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return p === '' ? '.' : '/';
  const at = trimmed.lastIndexOf('/');
  if (at < 0) return '.';
  return at === 0 ? '/' : trimmed.slice(0, at);
}

export function basename(p: string, ext?: string): string {
  const base = p.replace(/\/+$/, '').split('/').pop() ?? '';
  return ext !== undefined && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base;
}

export function extname(p: string): string {
  const base = basename(p);
  const dot = base.lastIndexOf('.');
  // As Node's: no dot, a leading one only (`.hidden`), or `..` itself: no extension.
  return dot <= 0 || base === '..' ? '' : base.slice(dot);
}

export function relative(from: string, to: string): string {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  return [...a.slice(same).map(() => '..'), ...b.slice(same)].join('/');
}

const path = { sep, isAbsolute, normalize, join, resolve, dirname, basename, extname, relative };
export const posix = path;
export default path;
