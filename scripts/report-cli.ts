// `npm run report -- [--out DIR] [--title TEXT] [--no-compare] <files or dirs...>`: builds REPORT.md,
// report/index.html and junit.xml from existing k6 handleSummary JSON (or --summary-export) and
// `--out json` NDJSON files, whichever engine produced them (real k6 included).
// Exit codes follow the verdict, as k6's 99 does, so a CI gate can rely on them:
//   0 the report says PASS; 1 it says FAIL (a scenario failed; the files are still written);
//   2 no report: bad arguments, no such input, or not one input could be read.
// A file that cannot be read is named on stderr and in the report, and the others are reported.
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { describeEngine } from '../report/engine-of-run.js';
import { ReportInputError } from '../report/errors.js';
import { buildFullReport, writeReports } from '../report/generate.js';
import { expandInputs, findPreviousRun, groupInputs } from '../report/runs.js';

const USAGE =
  'usage: npm run report -- [--out DIR] [--title TEXT] [--no-compare] <summary.json|points.ndjson[.gz]|dir>...';

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string', default: 'results' },
        title: { type: 'string' },
        'no-compare': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    console.error(`report: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(`report: no input files\n${USAGE}`);
    return 2;
  }
  const files = await expandInputs(positionals);
  const inputs = groupInputs(files);
  const runIds = [...new Set(inputs.map((i) => i.runId).filter((x): x is string => !!x))].sort();
  const newest = runIds.at(-1);
  const firstFile = files[0];
  const previous =
    !values['no-compare'] && newest && firstFile
      ? await findPreviousRun(
          dirname(firstFile),
          runIds[0] as string,
          inputs.map((i) => i.scenario),
        )
      : undefined;
  const report = await buildFullReport({ inputs, previous, title: values.title });
  for (const x of report.skipped ?? []) console.error(`report: skipped ${x.reason}`);
  // Nothing readable: the last good report in --out stays as it is.
  if (report.scenarios.length === 0) {
    console.error('report: not one input could be read; no report written');
    return 2;
  }
  const { files: written } = await writeReports(report, values.out);
  for (const s of report.scenarios)
    console.log(
      `${s.passed ? 'PASS' : 'FAIL'}  ${s.scenario} [${describeEngine(s.engine)}]${s.problems.length ? `: ${s.problems.join('; ')}` : ''}`,
    );
  // Only when a scenario was compared: a previous run of other scenarios compares nothing.
  if (report.scenarios.some((s) => s.comparison)) console.log(`compared with run ${previous?.runId}`);
  console.log(
    `report ${report.passed ? 'PASS' : 'FAIL'}: ${written.markdown}, ${written.html}, ${written.junit}`,
  );
  return report.passed ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`report: ${e instanceof ReportInputError ? e.message : (e as Error).stack}`);
    process.exit(2);
  },
);
