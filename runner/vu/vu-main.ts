// A VU's code once it knows its configuration, whatever hosts it (worker.ts, isolate/entry.ts): wires
// its parts (one job per file, see README.md: vu-state, script-text, main-thread-call, vu-runtime,
// script-globals, lifecycle) and runs the commands the main thread sends (init, setup, iterations,
// the loop, teardown, handleSummary), replying through the transport.
import { ModuleRegistry } from '../modules/index.js';
import { TimerQueue } from '../modules/timers/timers.js';
import { useProtoLoaderAt } from '../modules/worker-host-modules.js';
import type { IterationView } from '../modules/api/runtime.js';
import type { HostEvent, WorkerCommand } from '../bridge/protocol.js';
import { iterationView, runLoop, type LoopDeps } from './worker-loop.js';
import { createVuState } from './vu-state.js';
import { scriptText } from './script-text.js';
import { flush, post } from './main-thread-call.js';
import { createVuRuntime, instanceCounters, type DeclaredMetrics } from './vu-runtime.js';
import { eventLoopTurnDue } from './collection.js';
import { installScriptGlobals } from './script-globals.js';
import { createLifecycle } from './lifecycle.js';
import type { WorkerInit } from './worker-init.js';
import type { VuTransport } from './vu-transport.js';

/** What the host of the VU's code feeds it. */
export interface VuEntry {
  /** One command of the main thread; they come one at a time (never a new one before the reply). */
  handle(msg: WorkerCommand): Promise<void>;
  /** An event the main thread posted on its own (k6/net/grpc streams and async calls). */
  onHostEvent(event: HostEvent): void;
  /** A promise the script left rejected with no handler. */
  onUnhandledRejection(reason: unknown): void;
}

export function startVu(init: WorkerInit, transport: VuTransport): VuEntry {
  useProtoLoaderAt(init.protoLoaderPath);
  const vu = createVuState(init, transport);
  const text = scriptText(init.bundle);
  const declared: DeclaredMetrics = new Map();
  const rt = createVuRuntime(vu, declared);

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
  const life = createLifecycle({ vu, rt, text, registry, timers, declared });

  // What the loop command asks of this VU, made once rather than per loop.
  const loopDeps: LoopDeps = {
    runIteration: life.runIteration,
    report: (result) => post(vu, { t: 'iteration', result }),
    flushIfOlderThan: (ms) => {
      if (vu.lastIterationEnd - vu.lastFlush >= ms) flush(vu);
    },
    eventLoopTurnDue: () => eventLoopTurnDue(vu),
  };

  async function handle(msg: WorkerCommand): Promise<void> {
    try {
      let value: unknown;
      switch (msg.cmd) {
        case 'init':
          value = await life.runInit();
          break;
        case 'setup':
          value =
            typeof vu.scriptExports.setup === 'function'
              ? await life.runLifecycle('setup', [], msg.testOptions)
              : undefined;
          break;
        case 'iterate': {
          vu.lastIterate = { fnName: msg.fnName, data: msg.data, ctx: msg.ctx as IterationView };
          const { fnName, data, ctx } = vu.lastIterate;
          value = await life.whileActive(() => life.runIteration(fnName, data, ctx));
          break;
        }
        case 'iterate-next': {
          if (!vu.lastIterate) throw new Error('iterate-next before any iterate');
          const { fnName, data, ctx: base } = vu.lastIterate;
          const ctx = iterationView(base.scenario, msg.counts, base.testOptions);
          value = await life.whileActive(() => life.runIteration(fnName, data, ctx));
          break;
        }
        case 'loop':
          value = await life.whileActive(() => runLoop(msg.spec, vu.signals, loopDeps));
          break;
        case 'teardown':
          if (typeof vu.scriptExports.teardown === 'function')
            await life.runLifecycle('teardown', [msg.data], msg.testOptions);
          break;
        case 'summary':
          value = await life.runSummary(msg.data, msg.testOptions);
          break;
      }
      // The samples ride on the reply: one message per iteration in the common case.
      post(vu, { t: 'reply', seq: msg.seq, ok: true, value, samples: vu.samples.take() });
    } catch (err) {
      flush(vu);
      post(vu, { t: 'reply', seq: msg.seq, ok: false, ...life.commandFailure(msg.cmd, err) });
    }
  }

  return {
    handle,
    onHostEvent: (event) => (event.t === 'http' ? rt.onHttpEvent?.(event) : rt.onGrpcEvent?.(event)),
    onUnhandledRejection: life.onUnhandledRejection,
  };
}
