// The clinic: a PetClinic-REST-compatible API under /petclinic/api. Every route is an operation of
// the served OpenAPI document, which also validates its parameters and body (contract.ts).
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { refuseDeclaredBodyOver } from '../shared/body-limit.js';
import { refuseCodingsNotDecodedEverywhere } from '../shared/content-coding.js';
import { nestsDeeperThan } from '../shared/json-depth.js';
import type { Logger } from '../shared/logger.js';
import { createHttpMetrics } from '../shared/metrics.js';
import type { ClinicConfig } from './config.js';
import { loadContract, type Contract } from './contract.js';
import { ClinicProblem, clinicErrorHandler, invalid, notFound } from './problems.js';
import { nulErrors } from './text-check.js';
import { registerRoutes, type Handler, type Method } from './routes.js';
import { ensureAdmin } from './admin.js';
import {
  authenticate,
  createPasswordChecker,
  hashFor,
  requireRole,
  type PasswordChecker,
} from './security.js';
import { createMemoryStore } from './store/memory.js';
import { registerPoolMetrics } from './store/pool-metrics.js';
import type { ClinicStore } from './store/types.js';

export interface ClinicApp extends express.Express {
  /** The instance's state, for tests. */
  locals: express.Express['locals'] & {
    store: ClinicStore;
    contract: Contract;
    securityEnabled: boolean;
    /** Settles once the store holds the configured admin (main awaits it before listening). */
    ready: Promise<void>;
  };
}

/** The largest body any operation takes; a larger declared one is refused from the header alone. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** The document's deepest body nests 3 levels (a vet's specialties); anything far deeper is an attack
 * on whatever walks the value recursively (validation error messages overflowed the stack at 5,000). */
export const MAX_BODY_DEPTH = 32;

const boundedDepth: RequestHandler = (req, _res, next) => {
  if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) {
    next(
      new ClinicProblem(
        400,
        'HttpMessageNotReadableException',
        `JSON request body nests deeper than ${MAX_BODY_DEPTH} levels`,
      ),
    );
    return;
  }
  next();
};

/** Body handling only where the document has a body: reads (a load test's hot path) skip it. */
const jsonBody: RequestHandler[] = [
  (req, _res, next) => {
    // req.is() is null without a body (then validation answers 400) and false for another type.
    if (req.is('application/json') === false) {
      next(
        new ClinicProblem(
          415,
          'HttpMediaTypeNotSupportedException',
          "Content-Type must be 'application/json'",
        ),
      );
      return;
    }
    next();
  },
  refuseCodingsNotDecodedEverywhere(),
  express.json({ limit: BODY_LIMIT_BYTES }),
  boundedDepth,
];

/** 406 when Accept rules out JSON; the common headers are decided without running negotiation. */
const acceptsJson: RequestHandler = (req, _res, next) => {
  const accept = req.headers.accept;
  if (
    accept === undefined ||
    accept.includes('*/*') ||
    accept.includes('application/json') ||
    req.accepts(['application/json', 'application/problem+json'])
  ) {
    next();
    return;
  }
  next(
    new ClinicProblem(406, 'HttpMediaTypeNotAcceptableException', 'The API answers application/json only'),
  );
};

export function createClinicApp(
  config: ClinicConfig,
  deps: { logger?: Logger; store?: ClinicStore; contract?: Contract; checker?: PasswordChecker } = {},
): ClinicApp {
  const store = deps.store ?? createMemoryStore({ seeded: true });
  const contract = deps.contract ?? loadContract();
  const ready = ensureAdmin(store, config);
  ready.catch(() => {}); // awaited by main and by the secured API below; not unhandled meanwhile
  const app = express() as unknown as ClinicApp;
  app.locals.store = store;
  app.locals.ready = ready;
  app.locals.contract = contract;
  app.locals.securityEnabled = config.securityEnabled;
  const metrics = createHttpMetrics({
    defaultLabels: { service: config.securityEnabled ? 'clinic-secure' : 'clinic' },
  });

  registerPoolMetrics(metrics.registry, store);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(metrics.middleware);
  app.use(refuseDeclaredBodyOver(BODY_LIMIT_BYTES));
  // Spring Security's default headers, on both instances: with security off upstream still builds a
  // permit-all chain, which sends them too.
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-cache, no-store, max-age=0, must-revalidate');
    res.setHeader('Pragma', 'no-cache');
    res.setHeader('Expires', '0');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  // Basic on the secured instance, one cache of verified credentials for the API and /metrics, once
  // the admin user is in the store.
  const adminReady: RequestHandler = async (_req, _res, next) => {
    await ready;
    next();
  };
  // One derivation queue per instance: logins and POST /users share its bounds.
  const checker = deps.checker ?? createPasswordChecker();
  const auth = config.securityEnabled ? [adminReady, authenticate(store, checker)] : [];
  // /metrics is open by default (Prometheus scrapes it without credentials); CLINIC_METRICS_AUTH=true
  // puts it behind the same Basic authentication on the secured instance.
  app.get('/metrics', ...(config.protectMetrics ? auth : []), metrics.handler);
  const document = contract.document(config.securityEnabled);
  // Spring Boot's split: liveness is the process, readiness (and health) include the database.
  const liveness = (_req: Request, res: Response) => res.json({ status: 'UP' });
  const health = async (_req: Request, res: Response) => {
    if (!store.ping) {
      res.json({ status: 'UP' });
      return;
    }
    const up = await store.ping().then(
      () => true,
      () => false,
    );
    const status = up ? 'UP' : 'DOWN';
    res.status(up ? 200 : 503).json({ status, components: { db: { status } } });
  };
  const docs = (_req: Request, res: Response) => res.json(document);
  // Readiness probes (compose healthchecks, npm run lab) must work without credentials.
  for (const base of ['/petclinic', '/petclinic/api']) {
    app.get(`${base}/actuator/health`, health);
    app.get(`${base}/actuator/health/readiness`, health);
    app.get(`${base}/actuator/health/liveness`, liveness);
    app.get(`${base}/v3/api-docs`, docs);
  }
  app.get('/petclinic/', (_req, res) => res.redirect(302, '/petclinic/v3/api-docs'));

  const api = express.Router({ strict: true });
  if (config.securityEnabled) {
    api.use(...auth);
  }
  api.use(acceptsJson);

  const allowed = new Map<string, Set<string>>();
  const route = (method: Method, path: string, roles: string[], handler: Handler) => {
    const documented = `/api${path.replace(/:(\w+)/g, '{$1}')}`;
    const op = contract.operation(method, documented);
    if (!op) throw new Error(`${method.toUpperCase()} ${documented} is not in the served document`);
    const methods = allowed.get(path) ?? new Set<string>();
    allowed.set(path, methods.add(method.toUpperCase()));
    const guard = config.securityEnabled && roles.length > 0 ? [requireRole(...roles)] : [];
    api[method](path, ...guard, ...(op.hasBody ? jsonBody : []), async (req: Request, res: Response) => {
      // Express 5 parses req.query on every read: only operations with query parameters touch it.
      const checked = op.params(req.params as Record<string, string>, op.usesQuery ? req.query : {});
      if (!checked.ok) throw checked.notFound ? notFound() : invalid(checked.errors);
      const nulInArgs = nulErrors(checked.args);
      if (nulInArgs.length > 0) throw invalid(nulInArgs);
      if (op.hasBody) {
        const errors = op.body(req.body);
        if (errors.length > 0) throw invalid(errors);
        const nulInBody = nulErrors(req.body);
        if (nulInBody.length > 0) throw invalid(nulInBody);
      }
      const answer = await handler(req, checked.args);
      if (answer.location) res.location(answer.location);
      if (answer.body === undefined) res.status(answer.status).end();
      else res.status(answer.status).json(answer.body);
    });
  };
  registerRoutes(route, store, hashFor(checker));
  // A known path with a method it does not have: 405 with Allow (upstream's catch-all gives 500).
  for (const [path, methods] of allowed) {
    const allow = [...methods, ...(methods.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    api.all(path, (req, res, next) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') res.status(204).end();
      else
        next(
          new ClinicProblem(
            405,
            'HttpRequestMethodNotSupportedException',
            `Request method '${req.method}' is not supported`,
          ),
        );
    });
  }

  app.use('/petclinic/api', api);
  app.use((req: Request, _res: Response, next: NextFunction) =>
    next(
      new ClinicProblem(
        404,
        'NoResourceFoundException',
        `No static resource ${req.path.replace(/^\/petclinic\//, '')}.`,
      ),
    ),
  );
  app.use(clinicErrorHandler(deps.logger));
  return app;
}
