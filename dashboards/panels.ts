// Small helpers shared by both dashboards: the panel shapes they use again and again, so each
// dashboard file reads as a list of questions it answers rather than builder boilerplate.
import * as common from '@grafana/grafana-foundation-sdk/common';
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import type { DataSourceRef } from '@grafana/grafana-foundation-sdk/common';
import {
  DashboardBuilder,
  DashboardCursorSync,
  ThresholdsConfigBuilder,
  ThresholdsMode,
} from '@grafana/grafana-foundation-sdk/dashboard';
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';

/** A dashboard with the settings every loadlab dashboard shares: live refresh, last 15 min, shared crosshair. */
export function loadlabDashboard(
  title: string,
  uid: string,
  description: string,
  tags: string[],
): DashboardBuilder {
  return new DashboardBuilder(`loadlab: ${title}`)
    .uid(uid)
    .description(description)
    .tags(['loadlab', ...tags])
    .editable()
    .tooltip(DashboardCursorSync.Crosshair)
    .refresh('5s')
    .time({ from: 'now-15m', to: 'now' });
}

/** A green baseline with coloured steps; drawn as dashed lines on time series (SLO lines). */
export function thresholds(steps: Array<[number, string]>): ThresholdsConfigBuilder {
  return new ThresholdsConfigBuilder()
    .mode(ThresholdsMode.Absolute)
    .steps([{ value: null, color: 'green' }, ...steps.map(([value, color]) => ({ value, color }))]);
}

export function timeSeries(
  datasource: DataSourceRef,
  title: string,
  unit: string,
  targets: cog.Builder<cog.Dataquery>[],
  options: { description?: string; sloLines?: Array<[number, string]>; width?: number } = {},
): timeseries.PanelBuilder {
  const panel = new timeseries.PanelBuilder()
    .title(title)
    .datasource(datasource)
    .description(options.description ?? '')
    .unit(unit)
    .targets(targets)
    .span(options.width ?? 12)
    .height(8)
    .fillOpacity(10)
    .legend(
      new common.VizLegendOptionsBuilder()
        .showLegend(true)
        .displayMode(common.LegendDisplayMode.Table)
        .placement(common.LegendPlacement.Bottom)
        .calcs(['mean', 'max', 'lastNotNull']),
    )
    .tooltip(new common.VizTooltipOptionsBuilder().mode(common.TooltipDisplayMode.Multi));
  if (options.sloLines) {
    panel
      .thresholds(thresholds(options.sloLines))
      .thresholdsStyle(
        new common.GraphThresholdsStyleConfigBuilder().mode(common.GraphThresholdsStyleMode.Dashed),
      );
  }
  return panel;
}

export function singleStat(
  datasource: DataSourceRef,
  title: string,
  unit: string,
  target: cog.Builder<cog.Dataquery>,
  steps: Array<[number, string]> = [],
): stat.PanelBuilder {
  return new stat.PanelBuilder()
    .title(title)
    .datasource(datasource)
    .unit(unit)
    .withTarget(target)
    .span(4)
    .height(4)
    .thresholds(thresholds(steps))
    .colorMode(common.BigValueColorMode.Value)
    .graphMode(common.BigValueGraphMode.None)
    .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(['lastNotNull']).values(false));
}
