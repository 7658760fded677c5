// The GROUP and SCENARIO sections of k6 v1's `full` text summary (summary.js addGroups,
// addScenarios, _renderGroupContent): each section's checks and metrics, then its nested groups as
// `↳ GROUP: name` one context level deeper.
import type { SummarySection, SummarySections } from '../metrics/sections.js';
import {
  checkPieces,
  indentAt,
  metricPieces,
  visibleKeys,
  type FormatOptions,
  type Palette,
} from './text-summary-format.js';

export interface Section {
  title: string;
  content: string[];
}

export interface SectionContext {
  p: Palette;
  format: FormatOptions & { dots: boolean };
  seconds: number;
}

const isArrayIndex = (key: string) => /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;

/**
 * Groups in the order summary.js sees them: k6 hands them over as a JS object filled in first-seen
 * order, and a JS object lists integer-like keys first, ascending.
 */
export function objectKeyOrder<T>(entries: readonly [string, T][]): [string, T][] {
  const indexes = entries.filter(([k]) => isArrayIndex(k)).sort(([a], [b]) => Number(a) - Number(b));
  return [...indexes, ...entries.filter(([k]) => !isArrayIndex(k))];
}

/** The metric keys a section shows (checks and group_duration are never shown as metrics). */
export const sectionKeys = (section: SummarySection) => visibleKeys(Object.keys(section.metrics), 'full');

function groupContent(section: SummarySection, level: number, ctx: SectionContext): string[] {
  const nested = objectKeyOrder(section.groups).flatMap(([name, child]) => [
    `${indentAt(level + 1)}↳ ${ctx.p.bold(`GROUP: ${name}`)} \n`,
    ...groupContent(child, level + 1, ctx),
  ]);
  return [
    ...(section.checks ? checkPieces(section.checks, ctx.seconds, level, ctx.p) : []),
    ...metricPieces(section.metrics, sectionKeys(section), level, ctx.p, ctx.format),
    ...nested,
  ];
}

/** Top-level groups first (first-seen order), then non-default scenarios sorted by name. */
export function groupAndScenarioSections(sections: SummarySections, ctx: SectionContext): Section[] {
  const groups = objectKeyOrder(sections.groups).map(([name, section]) => ({
    title: `GROUP: ${name}`,
    content: groupContent(section, 0, ctx),
  }));
  const scenarios = [...sections.scenarios]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, section]) => ({ title: `SCENARIO: ${name}`, content: groupContent(section, 0, ctx) }));
  return [...groups, ...scenarios];
}

/** Every metric key of the sections and their nested groups, for summary.js's global width quirk. */
export function sectionMetricKeys(sections: SummarySections): string[] {
  const keys: string[] = [];
  const walk = (section: SummarySection): void => {
    keys.push(...sectionKeys(section));
    section.groups.forEach(([, child]) => walk(child));
  };
  [...sections.groups, ...sections.scenarios].forEach(([, section]) => walk(section));
  return keys;
}
