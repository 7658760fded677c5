// Where a thrown non-Error value (`throw 'x'`) came from. Such a value has no stack, yet k6 prints
// the frames of the throw for an iteration, setup or teardown. V8 tells a debugger where each
// exception is thrown: a same-thread inspector session pausing on every exception records the
// frames of the last primitive thrown and resumes at once. The session slows a VU's start and a
// pause costs about a millisecond, so the worker opens it only for a script that throws a literal.
import type { Session } from 'node:inspector';

export { mayThrowNonErrors } from '../script/thrown-literals.js';

interface CallFrame {
  functionName: string;
  location: { scriptId: string; lineNumber: number; columnNumber: number };
}

interface PausedParams {
  reason: string;
  data?: { type?: string; subtype?: string; value?: unknown };
  callFrames: CallFrame[];
}

export class ThrownValues {
  // node:inspector only for the scripts that open a session, not at every VU's start.
  private readonly session: Session = new (process.getBuiltinModule('node:inspector').Session)();
  /** scriptId -> file path, for the bundle only (the frames of the runner itself are not printed). */
  private readonly scripts = new Map<string, string>();
  private last: { value: unknown; stack: string } | undefined;

  /** `bundleUrl` is the file:// URL of the bundle's filename, `bundleName` the path the frames print. */
  constructor(
    private readonly bundleUrl: string,
    private readonly bundleName: string,
  ) {
    this.session.connect();
    this.session.on('Debugger.scriptParsed', (m: { params: { scriptId: string; url: string } }) => {
      if (m.params.url === this.bundleUrl) this.scripts.set(m.params.scriptId, this.bundleName);
    });
    this.session.on('Debugger.paused', (m: { params: PausedParams }) => {
      try {
        this.record(m.params);
      } finally {
        this.session.post('Debugger.resume');
      }
    });
    this.session.post('Debugger.enable');
    this.session.post('Debugger.setPauseOnExceptions', { state: 'all' });
  }

  private record(p: PausedParams): void {
    const type = p.data?.subtype === 'null' ? 'null' : p.data?.type;
    if (type === undefined || type === 'object' || type === 'function') {
      this.last = undefined;
      return;
    }
    const value = type === 'null' ? null : type === 'undefined' ? undefined : p.data?.value;
    // The paused frames as V8 writes a stack, so errors.ts formats them as an Error's frames.
    const frames: string[] = [];
    for (const f of p.callFrames) {
      const file = this.scripts.get(f.location.scriptId);
      if (file === undefined) continue;
      const where = `${file}:${f.location.lineNumber + 1}:${f.location.columnNumber + 1}`;
      frames.push(f.functionName ? `    at ${f.functionName} (${where})` : `    at ${where}`);
    }
    // The same value passing on through the runner (a rejected promise awaited, a rethrow) keeps
    // the script's frames.
    if (frames.length === 0 && this.last !== undefined && Object.is(this.last.value, value)) return;
    this.last = { value, stack: ['(thrown value)', ...frames].join('\n') };
  }

  /** The stack of the last exception if it was `value`, a primitive. */
  stackOf(value: unknown): string | undefined {
    if (this.last === undefined || (typeof value === 'object' && value !== null)) return undefined;
    return Object.is(this.last.value, value) ? this.last.stack : undefined;
  }

  close(): void {
    this.session.disconnect();
  }
}
