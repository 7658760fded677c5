// The generator: report inputs -> model (with comparison) -> REPORT.md, report/index.html, junit.xml.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareScenario } from './compare.js';
import { ReportInputError } from './errors.js';
import {
  buildReport,
  buildScenarioReport,
  type Report,
  type RunInput,
  type ScenarioReport,
  type SkippedInput,
} from './model.js';
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
  // Runs are independent: reading them concurrently overlaps file I/O with parsing. One file the
  // report cannot read is named and left out; it must not stop the report of the others.
  const skipped: SkippedInput[] = [];
  const read = await Promise.all(
    opts.inputs.map((input) =>
      buildScenarioReport(input).catch((e: unknown) => {
        if (!(e instanceof ReportInputError)) throw e;
        skipped.push({ scenario: input.scenario, reason: e.message });
        return undefined;
      }),
    ),
  );
  const scenarios = read.filter((s): s is ScenarioReport => s !== undefined);
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
  return buildReport(scenarios, { title: opts.title, runId: runId || undefined, now: opts.now, skipped });
}

export async function generateReports(opts: GenerateOptions): Promise<Generated> {
  return writeReports(await buildFullReport(opts), opts.outDir);
}

/** Writes REPORT.md, report/index.html and junit.xml of a built report into `outDir`. */
export async function writeReports(report: Report, outDir: string): Promise<Generated> {
  const files = {
    markdown: join(outDir, 'REPORT.md'),
    html: join(outDir, 'report', 'index.html'),
    junit: join(outDir, 'junit.xml'),
  };
  await mkdir(join(outDir, 'report'), { recursive: true });
  await Promise.all([
    writeFile(files.markdown, renderMarkdown(report)),
    writeFile(files.html, renderHtml(report)),
    writeFile(files.junit, renderJunit(report)),
  ]);
  return { report, files };
}
