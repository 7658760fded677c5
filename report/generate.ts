// The generator: report inputs -> model (with comparison) -> REPORT.md, report/index.html, junit.xml.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareScenario } from './compare.js';
import { buildReport, buildScenarioReport, type Report, type RunInput } from './model.js';
import { renderHtml } from './render/html.js';
import { renderJunit } from './render/junit.js';
import { renderMarkdown } from './render/markdown.js';

export interface GenerateOptions {
  inputs: RunInput[];
  outDir: string;
  /** The previous run's inputs, for the comparison section. */
  previous?: { runId: string; inputs: RunInput[] };
  title?: string;
  runId?: string;
  now?: Date;
}

export interface Generated {
  report: Report;
  files: { markdown: string; html: string; junit: string };
}

export async function buildFullReport(opts: Omit<GenerateOptions, 'outDir'>): Promise<Report> {
  const scenarios = [];
  // Runs are independent: reading them concurrently overlaps file I/O with parsing.
  scenarios.push(...(await Promise.all(opts.inputs.map((input) => buildScenarioReport(input)))));
  if (opts.previous) {
    for (const s of scenarios) {
      const prevInput = opts.previous.inputs.find((p) => p.scenario === s.scenario && p.summaryPath);
      if (!prevInput) continue;
      // A broken previous file must not stop today's report: the comparison is simply left out.
      const prev = await buildScenarioReport(prevInput).catch(() => undefined);
      if (prev) s.comparison = compareScenario(s, prev, opts.previous.runId);
    }
  }
  const runId = opts.runId ?? [...new Set(opts.inputs.map((i) => i.runId).filter(Boolean))].join(', ');
  return buildReport(scenarios, { title: opts.title, runId: runId || undefined, now: opts.now });
}

export async function generateReports(opts: GenerateOptions): Promise<Generated> {
  const report = await buildFullReport(opts);
  const files = {
    markdown: join(opts.outDir, 'REPORT.md'),
    html: join(opts.outDir, 'report', 'index.html'),
    junit: join(opts.outDir, 'junit.xml'),
  };
  await mkdir(join(opts.outDir, 'report'), { recursive: true });
  await Promise.all([
    writeFile(files.markdown, renderMarkdown(report)),
    writeFile(files.html, renderHtml(report)),
    writeFile(files.junit, renderJunit(report)),
  ]);
  return { report, files };
}
