// The handleSummary every scenario exports: files and text from ./summary.ts, labelled with the
// scenario and the profile that actually ran.
import type { ScenarioPlan } from './options.js';
import { profileOf } from './options.js';
import type { SummaryData } from './summary-data.js';
import { scenarioLabel, summaryFiles } from './summary.js';

export function summaryHandler(plan: ScenarioPlan, ownLabel: string) {
  return (data: SummaryData): Record<string, string> =>
    summaryFiles(
      data,
      { scenario: scenarioLabel(ownLabel, __ENV), profile: profileOf(plan, __ENV) },
      __ENV,
      new Date(),
    );
}
