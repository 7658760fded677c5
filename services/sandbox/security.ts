// Baseline security headers for the API and the pages. Pages use only same-origin scripts and
// styles, so a strict CSP costs nothing and shows users what a hardened target looks like.
import type { RequestHandler } from 'express';

const HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export const securityHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of Object.entries(HEADERS)) res.setHeader(name, value);
  next();
};
