// RFC 9457 problem details: the one error body shape both services answer with.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { STATUS_CODES } from 'node:http';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemFields {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

/** An error that carries the status and text of the problem it should become. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail ?? title);
  }
}

export function sendProblem(res: Response, problem: ProblemFields): void {
  res
    .status(problem.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify({ type: 'about:blank', ...problem }));
}

/** 404 for anything no route matched. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, {
    title: 'Not Found',
    status: 404,
    detail: `No resource at ${req.method} ${req.path}`,
    instance: req.originalUrl,
  });
};

/** Body-parser failures carry a `type`; map them to the client errors they are. */
const BODY_PARSER_ERRORS: Record<string, { status: number; title: string }> = {
  'entity.parse.failed': { status: 400, title: 'Malformed JSON' },
  'entity.too.large': { status: 413, title: 'Payload Too Large' },
  'encoding.unsupported': { status: 415, title: 'Unsupported Media Type' },
  'charset.unsupported': { status: 415, title: 'Unsupported Media Type' },
  'request.aborted': { status: 400, title: 'Request Aborted' },
  'request.size.invalid': { status: 400, title: 'Bad Request' },
};

/**
 * The 4xx status an error carries for the client, if any: http-errors from body-parser or zlib, the
 * router's URIError for a malformed percent-escape (`status` without `expose`), or any other library's
 * error with a 4xx `status` or `statusCode`. One rule, so no client error needs its own case.
 */
export function clientErrorStatus(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const carried = typeof status === 'number' ? status : statusCode;
  return typeof carried === 'number' && Number.isInteger(carried) && carried >= 400 && carried < 500
    ? carried
    : undefined;
}

export interface ErrorHandlerOptions {
  /** Called for unexpected errors (those that become a 500). */
  onUnexpected?: (err: unknown) => void;
}

/** Final error handler: every error leaves as problem+json, never as an HTML stack trace. */
export function problemErrorHandler(options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof HttpProblem) {
      sendProblem(res, {
        title: err.title,
        status: err.status,
        detail: err.detail,
        instance: req.originalUrl,
        ...err.extensions,
      });
      return;
    }
    const parserType = (err as { type?: unknown })?.type;
    const known = typeof parserType === 'string' ? BODY_PARSER_ERRORS[parserType] : undefined;
    if (known) {
      sendProblem(res, {
        ...known,
        detail: (err as Error).message,
        instance: req.originalUrl,
      });
      return;
    }
    // Other client errors raised by Express's own parts (a gzip body that does not inflate, a bad
    // percent-escape in a path parameter) are the client's fault too: keep their 4xx instead of a 500.
    const clientStatus = clientErrorStatus(err);
    if (clientStatus !== undefined) {
      sendProblem(res, {
        title: STATUS_CODES[clientStatus] ?? 'Bad Request',
        status: clientStatus,
        detail: (err as Error).message,
        instance: req.originalUrl,
      });
      return;
    }
    options.onUnexpected?.(err);
    sendProblem(res, {
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred',
      instance: req.originalUrl,
    });
  };
}
