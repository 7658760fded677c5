// Error bodies with upstream's ProblemDetail fields: type (the request URL), title, status, detail,
// timestamp and schemaValidationErrors, as application/problem+json.
import type { ErrorRequestHandler, Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import type { Logger } from '../shared/logger.js';
import { clientErrorStatus, PROBLEM_CONTENT_TYPE } from '../shared/problem.js';
import type { ValidationItem } from './contract.js';
import { CheckAbandoned, CheckRefused } from './check-queue.js';
import { isUnavailable } from './store/unavailable.js';

/** Seconds a client is asked to wait after a 503 or 429 (the database's timeouts are about this long). */
export const RETRY_AFTER_SECONDS = 2;

/** 503 + Retry-After: the database cannot answer now; the same request may succeed later. */
export function sendUnavailable(
  req: Request,
  res: Response,
  detail = 'The database is unavailable; retry later',
): void {
  res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  sendClinicProblem(req, res, 503, 'DataAccessResourceFailureException', detail);
}

/** Upstream's `type`: the request URL, made a valid URI whatever the client sent (a lone `%`, a Host
 * header that is no host). */
function typeUri(req: Request): string {
  const path = req.originalUrl.split('?')[0]!.replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  for (const host of [req.get('host') ?? 'localhost', 'localhost']) {
    try {
      return new URL(path, `${req.protocol}://${host}`).href;
    } catch {
      // an unusable Host: fall back to localhost
    }
  }
  return 'about:blank';
}

/** The clinic's problem detail as upstream words it (Spring's ProblemDetail with its extra fields). */
export function clinicProblemBody(
  req: Request,
  status: number,
  title: string,
  detail: string,
  errors: ValidationItem[] = [],
): string {
  return JSON.stringify({
    type: typeUri(req),
    title,
    status,
    detail,
    timestamp: new Date().toISOString(),
    schemaValidationErrors: errors,
  });
}

export function sendClinicProblem(
  req: Request,
  res: Response,
  status: number,
  title: string,
  detail: string,
  errors: ValidationItem[] = [],
): void {
  res
    .status(status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(clinicProblemBody(req, status, title, detail, errors));
}

export class ClinicProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly errors: ValidationItem[] = [],
  ) {
    super(detail);
  }
}

export const notFound = (what = 'resource') =>
  new ClinicProblem(404, 'ResourceNotFoundException', `The requested ${what} was not found`);
export const invalid = (errors: ValidationItem[]) =>
  new ClinicProblem(
    400,
    'MethodArgumentNotValidException',
    'The request contains invalid or missing parameters',
    errors,
  );

/** The Spring exception name upstream's clients see for a client error raised below the routes. */
function clientErrorTitle(err: unknown, status: number): string {
  if (status === 413) return 'MaxUploadSizeExceededException';
  if (status === 415) return 'HttpMediaTypeNotSupportedException';
  const type = (err as { type?: unknown }).type;
  // body-parser's own errors (entity.*, request.*) are about a body that cannot be read.
  if (typeof type === 'string') return 'HttpMessageNotReadableException';
  return status === 400 ? 'BadRequestException' : (STATUS_CODES[status] ?? 'Bad Request');
}

/**
 * The one place errors become responses: a ClinicProblem as itself, any error carrying a 4xx
 * `status`/`statusCode` (body-parser, zlib, the router's URIError for `%E0`, the body-size guard,
 * whatever a store raises for the client) as a problem detail with that status, the rest as 500.
 */
export function clinicErrorHandler(logger?: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof ClinicProblem) {
      sendClinicProblem(req, res, err.status, err.title, err.detail, err.errors);
      return;
    }
    if (err instanceof CheckRefused) {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      sendClinicProblem(
        req,
        res,
        err.status,
        err.status === 429 ? 'TooManyRequests' : 'ServiceUnavailable',
        err.message,
      );
      return;
    }
    if (err instanceof CheckAbandoned) {
      res.destroy(); // the client has gone: nothing to answer
      return;
    }
    if (isUnavailable(err)) {
      logger?.warn({ err }, 'database unavailable');
      sendUnavailable(req, res);
      return;
    }
    const status = clientErrorStatus(err);
    if (status !== undefined) {
      const malformed = (err as { type?: unknown }).type === 'entity.parse.failed';
      const detail = malformed ? 'Malformed JSON request body' : String((err as Error).message);
      sendClinicProblem(req, res, status, clientErrorTitle(err, status), detail);
      return;
    }
    logger?.error({ err }, 'unexpected error');
    sendClinicProblem(
      req,
      res,
      500,
      'Exception',
      'An unexpected error occurred while processing your request',
    );
  };
}
