// The builders of the k6 modules only a worker-hosted VU runs (api/names.ts: Node-bound, or returning
// promises). The VU isolate's bundle swaps this file for vu/isolate/worker-host-modules.ts, so an
// isolate carries none of their code: a third of the bundle, about 110 KB of memory per VU.
import type { VuRuntime } from './api/runtime.js';
import type { WorkerHostModule } from '../bridge/worker-host-modules.js';
import { createCsvModule } from './csv/csv.js';
import { createFsModule } from './fs/fs.js';
import { createGrpcModule } from './grpc/grpc.js';
import { createHtmlModule } from './html/html.js';
import { createSecretsModule } from './secrets/secrets.js';
import { createStreamsModule } from './streams/streams.js';
import { createWsModule } from './websocket/k6-ws.js';
import { createWebSocketsModule } from './websocket/websockets.js';

export { useProtoLoaderAt } from './grpc/grpc-descriptors.js';

export const workerHostBuilders: Record<WorkerHostModule, (rt: VuRuntime) => Record<string, unknown>> = {
  'k6/experimental/fs': (rt) => createFsModule(rt),
  'k6/experimental/csv': (rt) => createCsvModule(rt),
  'k6/experimental/streams': () => createStreamsModule(),
  'k6/secrets': (rt) => createSecretsModule(rt.secretSources, (v) => rt.revealSecret(v)),
  'k6/html': () => createHtmlModule(),
  'k6/ws': (rt) => createWsModule(rt),
  'k6/experimental/websockets': (rt) => createWebSocketsModule(rt),
  'k6/net/grpc': (rt) => createGrpcModule(rt),
};
