// k6's browser module reads a script's values into Go structs, converting them as JavaScript would
// (a number where a string is due becomes its text, a string where a number is due its value),
// where Playwright refuses any value of the wrong type ("expected string, got number"). These
// convert a script's cookies and headers as k6 does before they reach Playwright.
import type { Cookie } from 'playwright-core';

type ScriptCookie = Record<string, unknown>;

const STRING_FIELDS = ['name', 'value', 'url', 'domain', 'path', 'sameSite'] as const;
const BOOLEAN_FIELDS = ['httpOnly', 'secure'] as const;

/** A cookie as k6 reads it: text fields as text, `expires` as a number, flags as booleans. */
export function k6Cookie(cookie: unknown): unknown {
  if (cookie === null || typeof cookie !== 'object') return cookie;
  const out: ScriptCookie = { ...(cookie as ScriptCookie) };
  for (const key of STRING_FIELDS) if (out[key] != null) out[key] = String(out[key]);
  for (const key of BOOLEAN_FIELDS) if (out[key] != null) out[key] = Boolean(out[key]);
  if (out.expires != null) out.expires = Number(out.expires);
  return out as Partial<Cookie>;
}

/** k6's addCookies argument: each cookie of an array converted; anything else as given (Playwright's error). */
export function k6Cookies(cookies: unknown): unknown {
  return Array.isArray(cookies) ? cookies.map(k6Cookie) : cookies;
}

/** Header values as text, as k6's map[string]string holds them. */
export function k6Headers(headers: unknown): unknown {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return headers;
  return Object.fromEntries(
    Object.entries(headers as Record<string, unknown>).map(([k, v]) => [k, v == null ? v : String(v)]),
  );
}
