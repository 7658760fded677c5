// Fault injection for demos and tests that must make thresholds fail on purpose. Inert unless
// the operator switched it on (SANDBOX_FAULTS=true): a public target must not be slowed by anyone.
import type { Request, RequestHandler } from 'express';
import { setTimeout as delay } from 'node:timers/promises';
import { sendProblem } from '../shared/problem.js';
import { MAX_FAULT_LATENCY_MS, type FaultDefaults } from './config.js';

function firstString(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstString(value[0]);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A per-request override, clamped to safe bounds; garbage falls back to the default. */
function override(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), max) : fallback;
}

export interface FaultPlan {
  latencyMs: number;
  errorRate: number;
}

/** What to inject for one request: header first, then query, then the configured default. */
export function faultPlan(req: Pick<Request, 'headers' | 'query'>, defaults: FaultDefaults): FaultPlan {
  return {
    latencyMs: override(
      firstString(req.headers['x-fault-latency-ms']) ?? firstString(req.query.faultLatencyMs),
      defaults.latencyMs,
      MAX_FAULT_LATENCY_MS,
    ),
    errorRate: override(
      firstString(req.headers['x-fault-error-rate']) ?? firstString(req.query.faultErrorRate),
      defaults.errorRate,
      1,
    ),
  };
}

export function faultInjection(defaults: FaultDefaults, random: () => number = Math.random): RequestHandler {
  return (req, res, next) => {
    if (!defaults.enabled) {
      next();
      return;
    }
    const { latencyMs, errorRate } = faultPlan(req, defaults);
    const fail = random() < errorRate;
    const proceed = () => {
      if (!fail) {
        next();
        return;
      }
      sendProblem(res, {
        title: 'Injected Fault',
        status: 503,
        detail: `Fault injection answered 503 (error rate ${errorRate})`,
        instance: req.originalUrl,
      });
    };
    if (latencyMs > 0) void delay(latencyMs).then(proceed);
    else proceed();
  };
}
