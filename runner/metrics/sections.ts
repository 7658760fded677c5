// Per-group and per-scenario aggregates for k6's `full` text summary, as k6's summary output keeps
// them (internal/output/summary/summary.go flushSample): a sample of a non-default scenario counts
// for that scenario and for its group path under it; a sample of the default scenario (or of none)
// counts only for its group path; setup and teardown samples count for no group. A group holds only
// the samples tagged with exactly its path, never its children's.
import type { MetricType, Sample, ValueType } from '../contracts.js';
import { createSink, summaryValues, type AnySink } from '@loadlab/k6-format/sinks';
import type { SummaryMetric } from '@loadlab/k6-format/summary';

export interface CheckCount {
  name: string;
  passes: number;
  fails: number;
}

/** One GROUP or SCENARIO section: its checks (when it has any), its metrics, its nested groups. */
export interface SummarySection {
  checks?: { passes: number; fails: number; ordered: CheckCount[] };
  /** Plain metric names (no sub-metrics), every metric the section saw, hidden ones included. */
  metrics: Record<string, SummaryMetric>;
  /** Nested groups in first-seen order. */
  groups: [string, SummarySection][];
}

export interface SummarySections {
  /** Top-level groups of the default scenario (and of samples without one), first-seen order. */
  groups: [string, SummarySection][];
  /** Non-default scenarios, in first-seen order (the text summary sorts them). */
  scenarios: [string, SummarySection][];
}

interface MetricAggregate {
  type: MetricType;
  contains: ValueType;
  sink: AnySink;
}

interface SectionNode {
  metrics: Map<string, MetricAggregate>;
  /** By check name, first-seen order (k6 keys a section's checks by name, not path). */
  checks: Map<string, CheckCount>;
  groups: Map<string, SectionNode>;
}

const newNode = (): SectionNode => ({ metrics: new Map(), checks: new Map(), groups: new Map() });
const NOWHERE: readonly SectionNode[] = [];
const GROUP_SEPARATOR = '::';

export class SectionAggregator {
  private readonly root = newNode();
  private readonly scenarios = new Map<string, SectionNode>();
  /** scenario (null for default or none) -> group tag -> the nodes its samples go to. */
  private readonly targets = new Map<string | null, Map<string, readonly SectionNode[]>>();

  /** O(1) per sample: two map look-ups resolve where it goes, then one sink add per node. */
  add(sample: Sample): void {
    const { scenario, group } = sample.tags;
    const named = scenario !== undefined && scenario !== 'default';
    // The common case of an ungrouped sample in the default scenario belongs to no section.
    if (!named && !group) return;
    for (const node of this.targetsFor(named ? scenario : null, group ?? '')) record(node, sample);
  }

  private targetsFor(scenario: string | null, group: string): readonly SectionNode[] {
    let byGroup = this.targets.get(scenario);
    if (!byGroup) this.targets.set(scenario, (byGroup = new Map()));
    let nodes = byGroup.get(group);
    if (!nodes) byGroup.set(group, (nodes = this.resolve(scenario, group)));
    return nodes;
  }

  /** Creates the scenario and every group on the path, in order, the first time they are seen. */
  private resolve(scenario: string | null, group: string): readonly SectionNode[] {
    const nodes: SectionNode[] = [];
    let node = this.root;
    if (scenario !== null) {
      node = this.scenarios.get(scenario) ?? newNode();
      this.scenarios.set(scenario, node);
      nodes.push(node);
    }
    if (group === '') return nodes.length > 0 ? nodes : NOWHERE;
    const path = group.startsWith(GROUP_SEPARATOR) ? group.slice(GROUP_SEPARATOR.length) : group;
    if (path === 'setup' || path === 'teardown') return nodes;
    for (const name of path.split(GROUP_SEPARATOR)) {
      let child = node.groups.get(name);
      if (!child) node.groups.set(name, (child = newNode()));
      node = child;
    }
    nodes.push(node);
    return nodes;
  }

  /** The sections with their values at the end of the test (rates over the whole test duration). */
  sections(testRunDurationMs: number, trendStats: readonly string[]): SummarySections {
    const seconds = testRunDurationMs / 1000;
    const toSection = (node: SectionNode): SummarySection => {
      const metrics: Record<string, SummaryMetric> = {};
      for (const [name, m] of node.metrics) {
        metrics[name] = {
          type: m.type,
          contains: m.contains,
          values: summaryValues(m.type, m.sink, seconds, trendStats),
        };
      }
      const section: SummarySection = { metrics, groups: groupsOf(node) };
      const checks = node.metrics.get('checks');
      if (checks && checks.sink.count > 0) {
        const passes = metrics.checks!.values.passes ?? 0;
        section.checks = { passes, fails: checks.sink.count - passes, ordered: [...node.checks.values()] };
      }
      return section;
    };
    const groupsOf = (node: SectionNode): [string, SummarySection][] =>
      [...node.groups].map(([name, child]) => [name, toSection(child)]);
    return {
      groups: groupsOf(this.root),
      scenarios: [...this.scenarios].map(([name, node]) => [name, toSection(node)]),
    };
  }
}

function record(node: SectionNode, sample: Sample): void {
  let metric = node.metrics.get(sample.metric);
  if (!metric) {
    metric = { type: sample.type, contains: sample.contains, sink: createSink(sample.type) };
    node.metrics.set(sample.metric, metric);
  }
  metric.sink.add(sample.value);
  const checkName = sample.tags.check;
  if (sample.metric !== 'checks' || checkName === undefined) return;
  let check = node.checks.get(checkName);
  if (!check) node.checks.set(checkName, (check = { name: checkName, passes: 0, fails: 0 }));
  if (sample.value !== 0) check.passes += 1;
  else check.fails += 1;
}
