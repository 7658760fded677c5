// Clinic (PetClinic REST) request helpers: JSON in and out, `name` tags with templated paths so a
// thousand owner ids stay one row in reports.
import { check } from 'k6';
import encoding from 'k6/encoding';
import http from 'k6/http';
import type { Response } from './requests.js';

export interface ClinicClient {
  get(path: string, name: string): Response;
  post(path: string, body: unknown, name: string): Response;
  put(path: string, body: unknown, name: string): Response;
  del(path: string, name: string): Response;
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${encoding.b64encode(`${user}:${password}`)}`;
}

export function clinicClient(baseUrl: string, authorization?: string): ClinicClient {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (authorization) headers.Authorization = authorization;
  const params = (name: string, method: string) => ({
    headers,
    tags: { endpoint: 'clinic', name: `${method} ${name}` },
  });
  return {
    get: (path, name) => http.get(`${baseUrl}${path}`, params(name, 'GET')),
    post: (path, body, name) => http.post(`${baseUrl}${path}`, JSON.stringify(body), params(name, 'POST')),
    put: (path, body, name) => http.put(`${baseUrl}${path}`, JSON.stringify(body), params(name, 'PUT')),
    del: (path, name) => http.del(`${baseUrl}${path}`, null, params(name, 'DELETE')),
  };
}

/** The id of a created resource, or undefined when the create failed. */
export function createdId(res: Response, what: string): number | undefined {
  let id: unknown;
  try {
    id = (res.json() as { id?: unknown } | null)?.id;
  } catch {
    id = undefined;
  }
  const ok = check(res, { [`${what} created 201`]: (r) => r.status === 201 && typeof id === 'number' });
  return ok ? (id as number) : undefined;
}
