// The sandbox: the target every scenario of the suite loads. Health, login with signed bearer
// tokens, a users list, five static pages, error simulation and Prometheus metrics.
import express, { type Request, type RequestHandler } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { refuseDeclaredBodyOver } from '../shared/body-limit.js';
import { refuseCodingsNotDecodedEverywhere } from '../shared/content-coding.js';
import type { Logger } from '../shared/logger.js';
import { createHttpMetrics } from '../shared/metrics.js';
import { HttpProblem, notFoundHandler, problemErrorHandler } from '../shared/problem.js';
import type { SandboxConfig } from './config.js';
import { faultInjection } from './faults.js';
import { securityHeaders } from './security.js';
import { signToken, verifyToken } from './tokens.js';
import { seedUsers } from './users.js';

const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));
const PAGES = ['login', 'dashboard', 'team', 'settings', 'activity'] as const;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Compare equal-length buffers so the time spent does not reveal the secret's length prefix.
  return a.length === b.length && timingSafeEqual(a, b);
}

function requireJson(): RequestHandler {
  return (req, _res, next) => {
    if (!req.is('application/json')) {
      next(new HttpProblem(415, 'Unsupported Media Type', 'Send the body as Content-Type: application/json'));
      return;
    }
    next();
  };
}

/** Login bodies are tiny; anything bigger is refused before it is read. */
export const LOGIN_BODY_LIMIT_BYTES = 4096;

function credentialsFrom(req: Request): { email: string; password: string } {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpProblem(400, 'Bad Request', 'Body must be a JSON object {email, password}');
  }
  const { email, password } = body as Record<string, unknown>;
  const invalid = [
    ...(typeof email === 'string' && email !== '' ? [] : ['email']),
    ...(typeof password === 'string' && password !== '' ? [] : ['password']),
  ];
  if (invalid.length > 0) {
    throw new HttpProblem(400, 'Bad Request', `Missing or non-string field(s): ${invalid.join(', ')}`, {
      invalidParams: invalid.map((name) => ({ name, reason: 'must be a non-empty string' })),
    });
  }
  return { email: email as string, password: password as string };
}

export function createSandboxApp(config: SandboxConfig, deps: { logger?: Logger } = {}): express.Express {
  const app = express();
  const { logger } = deps;
  const metrics = createHttpMetrics({
    defaultLabels: { service: 'sandbox' },
    // Access log at debug: one line per request with the metric labels, off at the default level
    // so a load test does not turn into a logging test.
    onObserved: logger
      ? (o) =>
          logger.debug(
            { method: o.method, route: o.route, status: o.status, ms: o.seconds * 1000 },
            'request',
          )
      : undefined,
  });
  // Per route, not per router: a route's own middleware sees req.route, so an injected 503 is
  // counted under its templated route rather than "unmatched".
  // Switched off (the default), the layer is not mounted at all, so it costs nothing.
  const faults: RequestHandler[] = config.faults.enabled ? [faultInjection(config.faults)] : [];
  const users = seedUsers(config.demoEmail);
  const demoUser = users[0]!;

  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(metrics.middleware);
  app.use(securityHeaders);
  // No route takes a body bigger than a login: a larger declared one is refused from the header.
  app.use(refuseDeclaredBodyOver(LOGIN_BODY_LIMIT_BYTES));
  app.get('/metrics', metrics.handler);

  const api = express.Router();

  app.get('/health', ...faults, (_req, res) => {
    res.json({ status: 'ok', service: 'sandbox', uptimeSeconds: Math.round(process.uptime()) });
  });

  const parseLogin = [
    requireJson(),
    refuseCodingsNotDecodedEverywhere(),
    express.json({ limit: LOGIN_BODY_LIMIT_BYTES }),
  ];
  api.post('/auth/login', ...faults, ...parseLogin, (req, res) => {
    const { email, password } = credentialsFrom(req);
    const emailOk = sameSecret(email.toLowerCase(), config.demoEmail.toLowerCase());
    const passwordOk = sameSecret(password, config.demoPassword);
    if (!emailOk || !passwordOk) throw new HttpProblem(401, 'Unauthorized', 'Wrong email or password');
    const token = signToken(demoUser.email, config.tokenTtlSeconds, config.tokenSecret);
    res.json({
      token,
      expiresIn: config.tokenTtlSeconds,
      user: { email: demoUser.email, name: demoUser.name, role: demoUser.role },
    });
  });

  api.get('/users', ...faults, (req, res) => {
    const header = req.headers.authorization;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const check = match ? verifyToken(match[1]!, config.tokenSecret) : undefined;
      if (!check?.ok) {
        res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
        const why = check ? `token ${check.reason}` : 'expected "Bearer <token>"';
        throw new HttpProblem(401, 'Unauthorized', `Invalid Authorization header: ${why}`);
      }
    }
    res.json({ users });
  });

  api.get('/errors/404', ...faults, () => {
    throw new HttpProblem(404, 'Not Found', 'Simulated 404: this resource does not exist');
  });
  api.get('/errors/422', ...faults, () => {
    throw new HttpProblem(
      422,
      'Unprocessable Content',
      'Simulated 422: the request was understood but invalid',
      {
        errors: [{ field: 'email', message: 'must be a valid email address' }],
      },
    );
  });
  app.use('/api', api);

  // Only the five known pages are served: no directory walking, whatever the path says.
  for (const page of PAGES) {
    app.get(`/web/${page}.html`, (_req, res, next) => {
      res.sendFile(`${page}.html`, { root: WEB_DIR, headers: { 'Cache-Control': 'no-cache' } }, (err) => {
        if (err) next(err);
      });
    });
  }
  for (const asset of ['app.css', 'app.js']) {
    app.get(`/web/${asset}`, (_req, res, next) => {
      res.sendFile(asset, { root: WEB_DIR }, (err) => {
        if (err) next(err);
      });
    });
  }
  app.get('/', (_req, res) => res.redirect('/web/login.html'));

  app.use(notFoundHandler);
  app.use(problemErrorHandler({ onUnexpected: (err) => logger?.error({ err }, 'unexpected error') }));
  return app;
}
