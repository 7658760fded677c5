// Error bodies with upstream's ProblemDetail fields: type (the request URL), title, status, detail,
// timestamp and schemaValidationErrors, as application/problem+json.
import type { Request, Response } from 'express';
import { PROBLEM_CONTENT_TYPE } from '../shared/problem.js';
import type { ValidationItem } from './contract.js';

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
    .send(
      JSON.stringify({
        type: `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl.split('?')[0]}`,
        title,
        status,
        detail,
        timestamp: new Date().toISOString(),
        schemaValidationErrors: errors,
      }),
    );
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
