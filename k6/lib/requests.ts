// Request helpers: one per sandbox endpoint, each with the spec's exact check names and the
// `endpoint` and `name` tags every threshold and report groups by.
import { check } from 'k6';
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { faultHeaders } from './faults.js';

export type Response = RefinedResponse<ResponseType | undefined>;

export const STATIC_PAGES = ['login', 'dashboard', 'team', 'settings', 'activity'] as const;
export type StaticPage = (typeof STATIC_PAGES)[number];

/** LT_FAULT_* as the sandbox's x-fault-* headers, sent with every sandbox request (faults.ts). */
export const SANDBOX_FAULTS = faultHeaders(__ENV);

function tags(endpoint: string, name: string) {
  return { endpoint, name };
}

function jsonField(res: Response, field: string): unknown {
  try {
    const body = res.json() as Record<string, unknown> | null;
    return body && typeof body === 'object' ? body[field] : undefined;
  } catch {
    return undefined;
  }
}

export function getHealth(baseUrl: string): Response {
  const res = http.get(`${baseUrl}/health`, { headers: SANDBOX_FAULTS, tags: tags('health', 'GET /health') });
  check(res, {
    'health status 200': (r) => r.status === 200,
    'health responds quickly': (r) => r.timings.duration < 1000,
  });
  return res;
}

export function getUsers(baseUrl: string, token?: string): Response {
  const headers: Record<string, string> = { ...SANDBOX_FAULTS };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = http.get(`${baseUrl}/api/users`, { headers, tags: tags('users', 'GET /api/users') });
  check(res, {
    'users status 200': (r) => r.status === 200,
    'users has array': (r) => {
      const users = jsonField(r, 'users');
      return Array.isArray(users) && users.length > 0;
    },
    'users responds within 2s': (r) => r.timings.duration < 2000,
  });
  return res;
}

export function getStaticPage(baseUrl: string, page: StaticPage): Response {
  const path = `/web/${page}.html`;
  const res = http.get(`${baseUrl}${path}`, { headers: SANDBOX_FAULTS, tags: tags('static', `GET ${path}`) });
  check(res, {
    'static page status 200': (r) => r.status === 200,
    'static page has html': (r) => String(r.headers['Content-Type'] ?? '').includes('text/html'),
  });
  return res;
}

export interface LoginResult {
  res: Response;
  token?: string;
}

export function login(baseUrl: string, email: string, password: string): LoginResult {
  const res = http.post(`${baseUrl}/api/auth/login`, JSON.stringify({ email, password }), {
    headers: { ...SANDBOX_FAULTS, 'Content-Type': 'application/json' },
    tags: tags('auth_login', 'POST /api/auth/login'),
  });
  const token = jsonField(res, 'token');
  check(res, {
    'login status 200': (r) => r.status === 200,
    'login has token': () => typeof token === 'string',
  });
  return { res, token: typeof token === 'string' ? token : undefined };
}
