// A VU's code in a bare V8 isolate (isolated-vm, or the shared-isolate addon): no Node API is reachable
// from here or from the script; what the VU needs of Node is a call to the main thread (host.ts). The
// host sets its functions and the VU's configuration on the global, then runs this bundle, which starts
// the VU and publishes its VuEntry: one call into the isolate (a bundle merely compiled, to make V8's
// code cache, runs nothing).
import { ISOLATE_HOST_GLOBAL, ISOLATE_VU_GLOBAL } from '../../bridge/isolate-api.js';
import type { BridgeCall, WorkerCommand } from '../../bridge/protocol.js';
import { startVu, type VuEntry } from '../vu-main.js';
import type { VuTransport } from '../vu-transport.js';
import { host, takeHost } from './host.js';
import { completeNativeHost } from './native-host.js';

const transport: VuTransport = {
  post: (event) => host.post(event),
  send: (message) => host.send(message),
  // One crossing out, the answer copied back in: the isolate's thread waits on it.
  call: (message: BridgeCall) =>
    host.call.applySyncPromise(undefined, [message], { arguments: { copy: true } }),
};

/**
 * The VU's commands after its first, taken from the main thread one at a time until it has no more,
 * inside one call of the host's: the isolate keeps the thread it runs on between commands. A call
 * per command made isolated-vm start a new thread whenever its pool (a thread per core, plus one) was
 * busy, which a VU waiting on a request or a sleep keeps it: a thread per arrival-rate iteration.
 */
async function serve(vu: VuEntry): Promise<void> {
  for (;;) {
    const command = host.next.applySyncPromise(undefined, []) as WorkerCommand | null;
    if (command === null) return;
    await vu.handle(command);
  }
}

function start(): void {
  takeHost();
  const native = host.native;
  const started: { vu?: VuEntry } = {};
  // The shared-isolate host hands commands, events and timers to `dispatch`, the addon the rejections
  // a turn left unhandled; its sleeps leave the isolate.
  const dispatch =
    native &&
    completeNativeHost(host, native, {
      command: (command) => started.vu!.handle(command as WorkerCommand),
      event: (event) => started.vu!.onHostEvent(event),
      rejection: (reason) => started.vu!.onUnhandledRejection(reason),
    });
  if (native) {
    transport.waitSignal = native.wait;
    transport.receivesHostEvents = true;
    // The addon reports a turn's rejections once its promise jobs ran: a turn later, they are in.
    transport.rejectionsReported = () => host.timer.apply(undefined, [0]);
    transport.reportRejectionsNow = () => {
      const reasons = native.rejections();
      if (reasons === null) return false;
      for (const reason of reasons) started.vu!.onUnhandledRejection(reason);
      return true;
    };
  }
  // The source map stays on the main thread until an error needs it (isolate-api.ts).
  Object.defineProperty(host.init.bundle, 'sourceMap', { get: () => host.sourceMap() });
  const vu = startVu(host.init, transport);
  started.vu = vu;
  Object.defineProperty(globalThis, ISOLATE_VU_GLOBAL, {
    value: { ...vu, serve: () => serve(vu), dispatch },
  });
}

if (ISOLATE_HOST_GLOBAL in globalThis) start();
