// A VU's code in a Node worker thread (the host when isolated-vm is not there, see
// ../host/vu-host-choice.ts): waits for its VU's configuration, then runs vu-main.ts over a
// transport that blocks this thread with Atomics.wait while the main thread does the I/O.
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import type { GrpcEvent } from '../bridge/grpc-protocol.js';
import { SIGNAL, type WorkerCommand } from '../bridge/protocol.js';
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
    // Node reports a rejection nobody handled once the macrotask that left it ends: the immediate
    // runs after that.
    rejectionsReported: () => new Promise((resolve) => setImmediate(resolve)),
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

const init = vuInit();
const port = parentPort!;
const vu = startVu(init, portTransport(port, init.httpPort, new Int32Array(init.signals)));

// Events of the script's gRPC streams and async calls, run by this thread's event loop.
init.eventPort.on('message', (event: GrpcEvent) => vu.onHostEvent(event));
init.eventPort.unref();
process.on('unhandledRejection', vu.onUnhandledRejection);
port.on('message', (msg: WorkerCommand) => {
  void vu.handle(msg);
});
