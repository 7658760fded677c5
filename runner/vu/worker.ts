// The VU thread's entry: waits for its VU's configuration, wires its parts (one job per file, see
// README.md: vu-state, script-text, main-thread-call, vu-runtime, script-globals, lifecycle) and runs
// the commands the main thread sends (init, setup, iterations, the loop, teardown, handleSummary).
// k6's synchronous API is kept synchronous by blocking this thread with Atomics.wait while the main
// thread does the I/O (main-thread-call.ts).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { ModuleRegistry } from '../modules/index.js';
import { TimerQueue } from '../modules/timers/timers.js';
import { useProtoLoaderAt } from '../modules/grpc/grpc-descriptors.js';
import type { GrpcEvent } from '../bridge/grpc-protocol.js';
import type { IterationView } from '../modules/api/runtime.js';
import type { WorkerCommand } from '../bridge/protocol.js';
import { iterationView, runLoop, type LoopDeps } from './worker-loop.js';
import { createVuState } from './vu-state.js';
import { scriptText } from './script-text.js';
import { flush, post } from './main-thread-call.js';
import { createVuRuntime, instanceCounters, type DeclaredMetrics } from './vu-runtime.js';
import { eventLoopTurnDue } from './collection.js';
import { installScriptGlobals } from './script-globals.js';
import { createLifecycle } from './lifecycle.js';
import type { VuThreadStart, WorkerInit } from './worker-init.js';

/**
 * The VU's configuration. The thread was started ahead of its VU, and every module above is
 * evaluated by now: it waits here until a VU takes it (see host/vu-threads.ts).
 */
function vuInit(): WorkerInit {
  const start = workerData as VuThreadStart;
  const wake = new Int32Array(start.wake);
  for (;;) {
    Atomics.wait(wake, 0, 0);
    const msg = receiveMessageOnPort(start.configPort);
    if (msg) {
      start.configPort.close();
      return msg.message as WorkerInit;
    }
  }
}
const init = vuInit();
useProtoLoaderAt(init.protoLoaderPath);
const port = parentPort!;
const vu = createVuState(init, port);
const text = scriptText(init.bundle);
const declared: DeclaredMetrics = new Map();
const rt = createVuRuntime(vu, declared);

// Events of the script's gRPC streams and async calls, run by this thread's event loop.
init.eventPort.on('message', (event: GrpcEvent) => rt.onGrpcEvent?.(event));
init.eventPort.unref();

// The script's timers (k6/timers and its globals): an iteration waits for them before it ends.
const timers = new TimerQueue((message) => rt.log('warn', message, {})); // k6 tags it with no source

const registry = new ModuleRegistry(
  rt,
  instanceCounters(vu.instanceStats),
  init.browserModuleUrl,
  init.tsxApiUrl,
  {
    vuId: init.vuId,
    env: init.env,
    currentTags: () => rt.currentTags(),
    emit: (samples) => {
      for (const s of samples) rt.emit({ ...s, tags: { ...s.tags } });
    },
  },
  timers.api,
);

installScriptGlobals(vu, rt, text);
const { runInit, runLifecycle, runIteration, whileActive, runSummary, onUnhandledRejection, commandFailure } =
  createLifecycle({ vu, rt, text, registry, timers, declared });

process.on('unhandledRejection', onUnhandledRejection);

// What the loop command asks of this VU, made once rather than per loop.
const loopDeps: LoopDeps = {
  runIteration,
  report: (result) => post(vu, { t: 'iteration', result }),
  flushIfOlderThan: (ms) => {
    if (vu.lastIterationEnd - vu.lastFlush >= ms) flush(vu);
  },
  eventLoopTurnDue: () => eventLoopTurnDue(vu),
};

// Commands run one at a time: the main thread never sends a new one before the reply.
port.on('message', (msg: WorkerCommand) => {
  void handle(msg);
});

async function handle(msg: WorkerCommand): Promise<void> {
  try {
    let value: unknown;
    switch (msg.cmd) {
      case 'init':
        value = await runInit();
        break;
      case 'setup':
        value =
          typeof vu.scriptExports.setup === 'function'
            ? await runLifecycle('setup', [], msg.testOptions)
            : undefined;
        break;
      case 'iterate': {
        vu.lastIterate = { fnName: msg.fnName, data: msg.data, ctx: msg.ctx as IterationView };
        const { fnName, data, ctx } = vu.lastIterate;
        value = await whileActive(() => runIteration(fnName, data, ctx));
        break;
      }
      case 'iterate-next': {
        if (!vu.lastIterate) throw new Error('iterate-next before any iterate');
        const { fnName, data, ctx: base } = vu.lastIterate;
        const ctx = iterationView(base.scenario, msg.counts, base.testOptions);
        value = await whileActive(() => runIteration(fnName, data, ctx));
        break;
      }
      case 'loop':
        value = await whileActive(() => runLoop(msg.spec, vu.signals, loopDeps));
        break;
      case 'teardown':
        if (typeof vu.scriptExports.teardown === 'function')
          await runLifecycle('teardown', [msg.data], msg.testOptions);
        break;
      case 'summary':
        value = await runSummary(msg.data);
        break;
    }
    // The samples ride on the reply: one message per iteration in the common case.
    post(vu, { t: 'reply', seq: msg.seq, ok: true, value, samples: vu.samples.take() });
  } catch (err) {
    flush(vu);
    post(vu, { t: 'reply', seq: msg.seq, ok: false, ...commandFailure(msg.cmd, err) });
  }
}
