// Request bodies over a service's limit are refused from the Content-Length header alone. body-parser
// also checks the header, but then reads off the whole declared body before answering, so
// `Content-Length: 1000000000` with a 2-byte body held the socket until Node's 300 s request timeout.
import type { RequestHandler } from 'express';
import { HttpProblem } from './problem.js';

/** The error a declared body over the limit becomes (a 413 problem detail in either service). */
export class DeclaredBodyTooLarge extends HttpProblem {
  constructor(declared: number, limit: number) {
    super(413, 'Payload Too Large', `Body is ${declared} bytes; the limit is ${limit}`);
  }
}

/** 413 at once, before any byte of the body is read, and the connection closed after the answer
 * (the unread body must not be parsed as the next request). */
export function refuseDeclaredBodyOver(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const header = req.headers['content-length'];
    if (header === undefined) {
      next();
      return;
    }
    const declared = Number(header);
    if (declared > limitBytes) {
      res.setHeader('Connection', 'close');
      next(new DeclaredBodyTooLarge(declared, limitBytes));
      return;
    }
    next();
  };
}
