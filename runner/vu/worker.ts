// A VU's code in a Node worker thread (for scripts that need Node, or where the shared-isolate addon
// cannot be built: ../host/vu-host-choice.ts): waits for its VU's configuration, then runs vu-main.ts over a
// transport that blocks this thread with Atomics.wait while the main thread does the I/O.
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { SIGNAL, type HostEvent, type WorkerCommand } from '../bridge/protocol.js';
import { startVu } from './vu-main.js';
import type { VuTransport } from './vu-transport.js';
import type { VuThreadStart, WorkerThreadInit } from './worker-init.js';

/**
 * The VU's configuration. The thread was started ahead of its VU, and every module above is
 * evaluated by now: it waits here until a VU takes it (see host/vu-threads.ts).
 */
function vuInit(): WorkerThreadInit {
  const start = workerData as VuThreadStart;
  const wake = new Int32Array(start.wake);
  for (;;) {
    Atomics.wait(wake, 0, 0);
    const msg = receiveMessageOnPort(start.configPort);
    if (msg) {
      start.configPort.close();
      return msg.message as WorkerThreadInit;
    }
  }
}

/** Posts a call on the HTTP port and sleeps on the VU's SIGNAL slot until the answer is there. */
function portTransport(events: MessagePort, calls: MessagePort, signals: Int32Array): VuTransport {
  return {
    post: (event) => events.postMessage(event),
    send: (message) => calls.postMessage(message),
    // Node reports a rejection nobody handled when it processes its tick queue: at the end of the
    // macrotask that left it (the immediate runs after that), or when process._tickCallback() asks
    // (Node's runNextTicks, kept for userland code; 20, 22 and 24 have it). That one first drains
    // the microtask queue, except from inside a microtask (the marker then stays queued), and costs
    // a few flag reads when nothing is pending: a turn at every iteration's end cost the worker
    // host 9-20 % of its requests (bench/MEASUREMENTS.md).
    rejectionsReported: () => new Promise((resolve) => setImmediate(resolve)),
    reportRejectionsNow: tickCallback
      ? () => {
          let drained = false;
          queueMicrotask(() => (drained = true));
          tickCallback();
          return drained;
        }
      : undefined,
    call(message) {
      Atomics.store(signals, SIGNAL, 0);
      calls.postMessage(message);
      for (;;) {
        Atomics.wait(signals, SIGNAL, 0);
        const answer = receiveMessageOnPort(calls);
        if (answer) return answer.message;
      }
    },
  };
}

const tickCallback = (process as { _tickCallback?: () => void })._tickCallback;
const init = vuInit();
const port = parentPort!;
const vu = startVu(init, portTransport(port, init.httpPort, new Int32Array(init.signals)));

// Events of the script's gRPC streams and async calls, run by this thread's event loop.
init.eventPort.on('message', (event: HostEvent) => vu.onHostEvent(event));
init.eventPort.unref();
process.on('unhandledRejection', vu.onUnhandledRejection);
port.on('message', (msg: WorkerCommand) => {
  void vu.handle(msg);
});
