// The live web dashboard of the Node runner (K6_WEB_DASHBOARD=true): an HTTP server that pushes the
// report model as server-sent events every period, drawn by the same client and charts as the HTML
// report; threshold verdicts from the runner turn rows red or green; at stop() the final page is
// exported as a self-contained report. It must never throw into the run nor keep the process alive.
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { DurationError, parseDuration } from '@loadlab/k6-format/duration';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import { parseThresholds, ThresholdSyntaxError } from '@loadlab/k6-format/thresholds';
import type { Sample, ThresholdStates } from '@loadlab/k6-format/samples';
import type { OutputContext, ThresholdAwareOutput } from '@loadlab/runner';
import { RunAggregator } from '../aggregate.js';
import { thisNodeRunner } from '../engine-of-run.js';
import { buildReport, scenarioFromParts, type Report } from '../model.js';
import { openInBrowser } from '../open.js';
import { renderHtml } from '../render/html.js';
import { ThresholdTracker } from '../thresholds.js';

export interface DashboardOptions extends OutputContext {
  host: string;
  /** 0 = any free port (tests); -1 = no server, export only (as k6). */
  port: number;
  exportPath?: string;
  /** Milliseconds between snapshots; default K6_WEB_DASHBOARD_PERIOD or 10 s. */
  period?: number;
  open?: boolean;
}

export interface DashboardOutput extends ThresholdAwareOutput {
  /** The dashboard's address once started, undefined when it runs without a server. */
  readonly url: string | undefined;
}

const DEFAULT_PERIOD_MS = 10_000;

/** `10s`, `500ms`, `1m`, `1.5s` (Go's units, k6-format's parser) or a bare number of milliseconds. */
export function parsePeriod(text: string | undefined): number | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  try {
    const ms = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : parseDuration(trimmed, { days: false });
    return ms > 0 ? ms : undefined;
  } catch (error) {
    if (error instanceof DurationError) return undefined;
    throw error;
  }
}

/**
 * options.thresholds in any of k6's forms -> [metric key, source], read by k6-format's parser. The runner
 * refused the run before the dashboard starts if they did not parse; none is shown then.
 */
export function thresholdSources(thresholds: unknown): { metric: string; source: string }[] {
  try {
    return parseThresholds(thresholds).map((d) => ({ metric: d.metricKey, source: d.source }));
  } catch (error) {
    if (error instanceof ThresholdSyntaxError) return [];
    throw error;
  }
}

export function createDashboardOutput(ctx: DashboardOptions): DashboardOutput {
  const defined = thresholdSources(ctx.options.thresholds);
  const aggregator = new RunAggregator(new ThresholdTracker(defined.map((d) => d.metric)));
  const scenario = ctx.env.LT_SCENARIO || basename(ctx.scriptPath).replace(/\.[cm]?[jt]s$/, '');
  const periodMs = ctx.period ?? parsePeriod(ctx.env.K6_WEB_DASHBOARD_PERIOD) ?? DEFAULT_PERIOD_MS;
  const clients = new Set<ServerResponse>();
  let states: ThresholdStates = {};
  let server: Server | undefined;
  let url: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let eventId = 0;

  // The dashboard is an output of the Node runner: the engine is known.
  const engine = thisNodeRunner();
  const model = (): Report => {
    const thresholds = defined.map((d) => {
      const ok = states[d.metric]?.[d.source]?.ok;
      return { metric: d.metric, source: d.source, ok: ok ?? true, pending: ok === undefined };
    });
    const live = { ...scenarioFromParts({ scenario }, undefined, aggregator, { thresholds }), engine };
    return buildReport([live], {
      title: `Live: ${scenario}`,
    });
  };

  const send = (event: string, data: unknown) => {
    if (clients.size === 0) return;
    const frame = `id: ${++eventId}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of clients) res.write(frame);
  };

  const pushSnapshot = () => {
    try {
      if (clients.size > 0) send('snapshot', model());
    } catch (e) {
      ctx.warn(`web dashboard: snapshot failed: ${(e as Error).message}`);
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/') {
      res.writeHead(302, { location: '/ui/' }).end();
    } else if (path === '/ui/' || path === '/ui') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(renderHtml(model(), { live: true, eventsPath: '/events' }));
    } else if (path === '/report') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(renderHtml(model()));
    } else if (path === '/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`retry: ${Math.min(periodMs, 5000)}\n\n`);
      clients.add(res);
      req.once('close', () => clients.delete(res));
      res.write(`id: ${++eventId}\nevent: snapshot\ndata: ${JSON.stringify(model())}\n\n`);
    } else if (path === '/favicon.ico') {
      res.writeHead(204).end(); // browsers ask for it; a 404 would show up as a console error
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  };

  return {
    get description() {
      return url ? `web dashboard (${url})` : 'web dashboard (export only)';
    },
    get url() {
      return url;
    },

    async start() {
      if (ctx.port >= 0) {
        const s = createServer(handle);
        try {
          await new Promise<void>((resolve, reject) => {
            s.once('error', reject);
            s.listen(ctx.port, ctx.host, () => resolve());
          });
          s.on('error', (e) => ctx.warn(`web dashboard: ${e.message}`));
          server = s;
          const addr = s.address() as AddressInfo;
          const shown = !ctx.host || ctx.host === '0.0.0.0' || ctx.host === '::' ? '127.0.0.1' : ctx.host;
          url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${addr.port}`;
          // An open dashboard tab must not keep the run's process alive.
          s.unref();
        } catch (e) {
          const err = e as NodeJS.ErrnoException;
          const why = err.code === 'EADDRINUSE' ? `port ${ctx.port} is in use` : err.message;
          ctx.warn(`web dashboard: ${why}; continuing without the dashboard`);
        }
      }
      timer = setInterval(pushSnapshot, periodMs);
      timer.unref();
      if (url && ctx.open) void openInBrowser(`${url}/ui/`);
    },

    addSamples(samples: readonly Sample[]) {
      try {
        for (const s of samples) aggregator.add(s.metric, s.type, s.time, s.value, s.tags, s.contains);
      } catch (e) {
        ctx.warn(`web dashboard: dropped samples: ${(e as Error).message}`);
      }
    },

    setThresholds(next: ThresholdStates) {
      const changed = JSON.stringify(next) !== JSON.stringify(states);
      states = structuredClone(next);
      // A verdict that flips is news: push it now instead of waiting for the next period.
      if (changed) pushSnapshot();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      let final: Report | undefined;
      try {
        final = model();
        send('snapshot', final);
        send('stop', {});
      } catch (e) {
        ctx.warn(`web dashboard: final snapshot failed: ${(e as Error).message}`);
      }
      for (const res of clients) res.end();
      clients.clear();
      if (server) {
        // Never wait for browsers that keep connections open: close everything now.
        server.close();
        server.closeAllConnections();
        server = undefined;
      }
      if (ctx.exportPath && final) {
        // Like k6's dashboard, the file is created but no folder is (the npm scripts make results/).
        try {
          await writeFile(ctx.exportPath, renderHtml(final));
        } catch (e) {
          ctx.warn(`web dashboard: cannot export the report: ${goPathError('open', ctx.exportPath, e)}`);
        }
      }
    },
  };
}
