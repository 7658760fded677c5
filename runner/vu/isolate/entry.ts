// A VU's code in a context of a shared V8 isolate (host/shared-isolate-host.ts): no Node API is
// reachable from here or from the script; what the VU needs of Node is a call to the main thread
// (host.ts). The host sets its data and the addon's functions on the global, then runs this bundle,
// which starts the VU and publishes its VuEntry with the function the host's dispatches go to (a
// bundle merely compiled, to make V8's code cache, runs nothing).
import { ISOLATE_HOST_GLOBAL, ISOLATE_VU_GLOBAL } from '../../bridge/isolate-api.js';
import type { WorkerCommand } from '../../bridge/protocol.js';
import { startVu, type VuEntry } from '../vu-main.js';
import type { VuTransport } from '../vu-transport.js';
import { host, takeHost } from './host.js';

function start(): void {
  const started: { vu?: VuEntry } = {};
  // Commands, events and timers come as dispatches, the rejections a turn left unhandled from the
  // addon; a VU's sleeps leave the isolate to the others.
  const dispatch = takeHost({
    command: (command) => started.vu!.handle(command as WorkerCommand),
    event: (event) => started.vu!.onHostEvent(event),
    rejection: (reason) => started.vu!.onUnhandledRejection(reason),
  });
  const native = host.native;
  const transport: VuTransport = {
    post: (event) => host.post(event),
    send: (message) => host.send(message),
    // One crossing out, the answer copied back in: the VU's thread waits on it.
    call: (message) => host.call(message),
    waitSignal: native.wait,
    // The addon reports a turn's rejections once its promise jobs ran: a turn later, they are in.
    rejectionsReported: () => host.timer(0),
    reportRejectionsNow: () => {
      const reasons = native.rejections();
      if (reasons === null) return false;
      for (const reason of reasons) started.vu!.onUnhandledRejection(reason);
      return true;
    },
  };
  // The source map stays on the main thread until an error needs it (isolate-api.ts).
  Object.defineProperty(host.init.bundle, 'sourceMap', { get: () => host.sourceMap() });
  const vu = startVu(host.init, transport);
  started.vu = vu;
  Object.defineProperty(globalThis, ISOLATE_VU_GLOBAL, { value: { ...vu, dispatch } });
}

if (ISOLATE_HOST_GLOBAL in globalThis) start();
