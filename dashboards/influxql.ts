// A raw InfluxQL target for Grafana's InfluxDB datasource. The foundation SDK ships builders for many
// datasources but not InfluxDB, so this is the one small piece written by hand; it plugs into the SDK's
// panel builders through the cog.Builder<cog.Dataquery> interface.
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import type { DataSourceRef } from '@grafana/grafana-foundation-sdk/common';
import { INFLUXDB } from './datasources.js';

export interface InfluxQlTarget extends cog.Dataquery {
  refId: string;
  datasource: DataSourceRef;
  query: string;
  rawQuery: true;
  resultFormat: 'time_series' | 'table';
  alias?: string;
}

export class InfluxQlBuilder implements cog.Builder<cog.Dataquery> {
  private readonly target: InfluxQlTarget;

  constructor(refId: string, query: string) {
    this.target = {
      refId,
      datasource: INFLUXDB,
      query,
      rawQuery: true,
      resultFormat: 'time_series',
      _implementsDataqueryVariant: () => undefined,
    };
  }

  /** Series name shown in legends; `$tag_<key>` refers to a GROUP BY tag. */
  alias(alias: string): this {
    this.target.alias = alias;
    return this;
  }

  table(): this {
    this.target.resultFormat = 'table';
    return this;
  }

  build(): InfluxQlTarget {
    // The variant marker only exists for the type checker; it must not end up in the JSON.
    const { _implementsDataqueryVariant: _marker, ...plain } = this.target;
    return plain as InfluxQlTarget;
  }
}
