#!/bin/sh
# InfluxDB 2.x first-start hook (mounted into /docker-entrypoint-initdb.d): maps the InfluxQL database
# "<bucket>" / retention policy "autogen" onto the k6 bucket, so Grafana's InfluxQL datasource and the
# dashboards work on 2.x exactly as on 1.x. The image runs this once, after its own setup, with the
# DOCKER_INFLUXDB_INIT_* variables set and the CLI already authenticated.
set -eu

bucket="${DOCKER_INFLUXDB_INIT_BUCKET:?DOCKER_INFLUXDB_INIT_BUCKET is not set}"
org="${DOCKER_INFLUXDB_INIT_ORG:?DOCKER_INFLUXDB_INIT_ORG is not set}"

# The first column is the id, whether the CLI pads its table with tabs or spaces.
bucket_id=$(influx bucket list --org "$org" --name "$bucket" --hide-headers | awk 'NR == 1 { print $1 }')
if [ -z "$bucket_id" ]; then
  echo "create-dbrp: bucket $bucket not found in org $org" >&2
  exit 1
fi

influx v1 dbrp create --org "$org" --bucket-id "$bucket_id" --db "$bucket" --rp autogen --default
echo "create-dbrp: InfluxQL database $bucket/autogen -> bucket $bucket ($bucket_id)"
