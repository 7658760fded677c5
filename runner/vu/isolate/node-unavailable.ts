// node:fs and node:worker_threads in a VU isolate: the modules that import them (k6/net/grpc's
// proto files, the WebSocket channel) run on the worker host (vu-host-choice.ts). Reaching one
// here is a bug in that choice: said in one line rather than as a missing function.
function unavailable(name: string): never {
  throw new Error(`${name} is not available in a VU isolate`);
}

export const existsSync = (): never => unavailable('node:fs');
export const readFileSync = (): never => unavailable('node:fs');
export const receiveMessageOnPort = (): never => unavailable('node:worker_threads');
export const parentPort = undefined;
export class MessageChannel {
  constructor() {
    unavailable('node:worker_threads');
  }
}
export default {};
