// A small per-VU cookie jar (k6 keeps one per VU and resets it each iteration): domain + path
// matching and expiry, enough for session cookies of the apps under test.
import { parseSetCookie } from '../bridge/go-http.js';
interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  expires: number; // ms epoch, Infinity for session cookies
  secure: boolean;
  httpOnly: boolean;
}

export class CookieJar {
  private cookies: StoredCookie[] = [];

  setFromHeader(header: string, url: URL): void {
    const c = parseSetCookie(header);
    if (!c) return;
    let expires = Infinity;
    if (c.max_age !== 0) expires = Date.now() + c.max_age * 1000;
    else if (c.expires) expires = c.expires;
    const stored: StoredCookie = {
      name: c.name,
      value: c.value,
      domain: c.domain || url.hostname,
      hostOnly: !c.domain,
      path: c.path || defaultPath(url.pathname),
      expires,
      secure: c.secure,
      httpOnly: c.http_only,
    };
    this.cookies = this.cookies.filter(
      (o) => !(o.name === stored.name && o.domain === stored.domain && o.path === stored.path),
    );
    if (expires > Date.now()) this.cookies.push(stored);
  }

  /** http.cookieJar().set(url, name, value, {domain, path, expires, max_age, secure, http_only}). */
  set(url: URL, name: string, value: string, opts: Record<string, unknown> = {}): void {
    let header = `${name}=${value}`;
    if (opts.domain) header += `; Domain=${String(opts.domain)}`;
    if (opts.path) header += `; Path=${String(opts.path)}`;
    if (opts.expires) header += `; Expires=${String(opts.expires)}`;
    if (opts.max_age) header += `; Max-Age=${String(opts.max_age)}`;
    if (opts.secure) header += '; Secure';
    if (opts.http_only) header += '; HttpOnly';
    this.setFromHeader(header, url);
  }

  /** Cookies that apply to this URL, name -> value. */
  cookieHeader(url: URL): Map<string, string> {
    const now = Date.now();
    const out = new Map<string, string>();
    for (const c of this.cookies) {
      if (c.expires <= now) continue;
      if (c.secure && url.protocol !== 'https:') continue;
      const host = url.hostname;
      const domainOk = c.hostOnly ? host === c.domain : host === c.domain || host.endsWith(`.${c.domain}`);
      if (!domainOk) continue;
      if (!(
        url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)
      )) {
        continue;
      }
      out.set(c.name, c.value);
    }
    return out;
  }

  clear(url?: URL): void {
    this.cookies = url ? this.cookies.filter((c) => !this.matches(c, url)) : [];
  }

  delete(url: URL, name: string): void {
    this.cookies = this.cookies.filter((c) => !(c.name === name && this.matches(c, url)));
  }

  private matches(c: StoredCookie, url: URL): boolean {
    const host = url.hostname;
    return c.hostOnly ? host === c.domain : host === c.domain || host.endsWith(`.${c.domain}`);
  }
}

function defaultPath(pathname: string): string {
  const i = pathname.lastIndexOf('/');
  return i <= 0 ? '/' : pathname.slice(0, i);
}
