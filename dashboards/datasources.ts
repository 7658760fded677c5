// The datasource uids provisioned in provisioning/datasources/datasources.yml. Dashboards point at
// these fixed uids, never at `${DS_...}` inputs that file provisioning would leave unresolved.
import type { DataSourceRef } from '@grafana/grafana-foundation-sdk/common';

export const INFLUXDB: DataSourceRef = { type: 'influxdb', uid: 'loadlab-influxdb' };
export const PROMETHEUS: DataSourceRef = { type: 'prometheus', uid: 'loadlab-prometheus' };
