// Prometheus metrics shared by both services: default process metrics plus a request
// counter and duration histogram labelled by method, templated route and status.
import type { Request, RequestHandler } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  /** Records every request once it has been answered. */
  middleware: RequestHandler;
  /** Serves the exposition text. */
  handler: RequestHandler;
}

/** Unmatched paths share one label so an attacker cannot blow up the series count. */
const UNMATCHED_ROUTE = 'unmatched';

function templatedRoute(req: Request): string {
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath !== 'string') return UNMATCHED_ROUTE;
  return `${req.baseUrl}${routePath}` || '/';
}

export interface HttpObservation {
  method: string;
  route: string;
  status: string;
  seconds: number;
}

export interface HttpMetricsOptions {
  prefix?: string;
  defaultLabels?: Record<string, string>;
  /** Called once per answered request with what was recorded (e.g. for an access log), so a
   * service that also logs needs no second `finish` listener per request. */
  onObserved?: (observation: HttpObservation) => void;
}

export function createHttpMetrics(options: HttpMetricsOptions = {}): HttpMetrics {
  const registry = new Registry();
  if (options.defaultLabels) registry.setDefaultLabels(options.defaultLabels);
  collectDefaultMetrics({ register: registry, prefix: options.prefix ?? '' });

  const { onObserved } = options;
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, templated route and status code.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request arrival to the end of the response, in seconds.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const middleware: RequestHandler = (req, res, next) => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { method: req.method, route: templatedRoute(req), status: String(res.statusCode) };
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      requests.inc(labels);
      duration.observe(labels, seconds);
      onObserved?.({ ...labels, seconds });
    });
    next();
  };

  const handler: RequestHandler = async (_req, res, next) => {
    try {
      const body = await registry.metrics();
      res.type(registry.contentType).send(body);
    } catch (err) {
      next(err);
    }
  };

  return { registry, middleware, handler };
}
