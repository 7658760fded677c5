// The VuRuntime the k6 modules run against (modules/api/runtime.ts): tags, samples, the calls to
// the main thread, sleep and interrupts, metrics declared, open()'s files, freed cookie jars,
// SharedArrays. Made once per VU over its state.
import { SampleMetadata } from '../bridge/sample-metadata.js';
import path from 'node:path';
import type { MetricType, ValueType } from '../contracts.js';
import { BUILTIN_METRICS } from '../metrics/builtin.js';
import type { InstanceCounters } from '../modules/execution/execution.js';
import { PendingWork } from '../event-loop/pending-work.js';
import type { GrpcAnswer } from '../bridge/grpc-protocol.js';
import { sharedTexts, textsOf } from '../modules/data/shared-texts.js';
import { sharedArrayKey } from '../bridge/shared-keys.js';
import { InitFiles } from './init-files.js';
import { goError } from '../modules/api/go-error.js';
import { goQuote } from '@loadlab/k6-format/go-quote';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import {
  AbortSignal,
  InterruptSignal,
  type InitFile,
  type IterationView,
  type Phase,
  type VuRuntime,
} from '../modules/api/runtime.js';
import {
  INSTANCE_STATS,
  testStartIn,
  INTERRUPT,
  type JarAnswer,
  type JarOp,
  Res,
  type BatchLimits,
  type BridgeCall,
  type HttpCall,
  type RequestTuple,
  type ResponseTuple,
} from '../bridge/protocol.js';
import { filterSystemTags } from '../bridge/system-tags.js';
import { callMainThread, flush, flushIfFull, post, sendHttp } from './main-thread-call.js';
import type { VuState } from './vu-state.js';

/** Custom metrics the script declared, by name. */
export type DeclaredMetrics = Map<string, { type: MetricType; contains: ValueType }>;

/** exec.instance's counters, read from the run's shared INSTANCE_STATS. */
export function instanceCounters(instanceStats: Int32Array): InstanceCounters {
  const testStart = testStartIn(instanceStats.buffer);
  return {
    get testStartedAt() {
      return testStart[0]!;
    },
    get iterationsCompleted() {
      return Atomics.load(instanceStats, INSTANCE_STATS.iterationsCompleted);
    },
    get iterationsInterrupted() {
      return Atomics.load(instanceStats, INSTANCE_STATS.iterationsInterrupted);
    },
    get vusActive() {
      return Atomics.load(instanceStats, INSTANCE_STATS.vusActive);
    },
    get vusInitialized() {
      return Atomics.load(instanceStats, INSTANCE_STATS.vusInitialized);
    },
  };
}

/** Drops the system tags options.systemTags leaves out, in place (every tag set passed here is fresh). */
function withSystemTagsFiltered(vu: VuState, tags: Record<string, string>): Record<string, string> {
  return filterSystemTags(tags, vu.enabledSystemTags);
}

export function createVuRuntime(vu: VuState, declared: DeclaredMetrics): VuRuntime {
  const init = vu.init;
  const signals = vu.signals;
  // A sleep: Atomics.wait, or the host's own where that would hold an isolate other VUs share.
  const wait = vu.transport.waitSignal ?? Atomics.wait;
  const buffer = vu.samples;
  /** The number of the VU's last http.asyncRequest call (its answer's event names it). */
  let lastHttpCall = 0;
  const initFiles = new InitFiles(init.sharedArrays ?? {}, (key, buffer) =>
    post(vu, { t: 'shared', key, buffer }),
  );
  function postFreedJars(): void {
    post(vu, { t: 'jars-freed', ids: vu.freedJars });
    rt.awaitingCollection(-vu.freedJars.length);
    vu.freedJars = [];
  }

  const rt: VuRuntime = {
    vuId: init.vuId,
    env: init.env,
    scriptDir: init.bundle.scriptDir,
    secretSources: init.secretSources ?? {},
    revealSecret(value) {
      post(vu, { t: 'secret', value });
    },
    sharedArrays: {
      get: (name) => {
        const buffer = init.sharedArrays?.[sharedArrayKey(name)];
        return buffer && textsOf(buffer);
      },
      publish(name, items) {
        const buffer = sharedTexts(items);
        post(vu, { t: 'shared', key: sharedArrayKey(name), buffer });
        return textsOf(buffer);
      },
    },
    phase: 'init' as Phase,
    iteration: undefined as IterationView | undefined,
    metadata: new SampleMetadata(buffer, vu.enabledSystemTags),
    testOptions: undefined as Record<string, unknown> | undefined,
    groupPath: '',
    vuTags: {},
    responseCallback: null,
    currentTags() {
      const tags: Record<string, string> = { ...init.runTags, ...vu.scenarioTags, ...this.vuTags };
      if (vu.scenarioName) tags.scenario = vu.scenarioName;
      // k6's handleSummary runs outside any group: its VU's tags have none.
      if (this.phase !== 'summary') tags.group = this.groupPath;
      return tags;
    },
    baseTags() {
      const f = vu.baseTagsFor;
      if (
        f.group !== this.groupPath ||
        f.scenarioName !== vu.scenarioName ||
        f.scenarioTags !== vu.scenarioTags ||
        f.vuTagsVersion !== vu.vuTagsVersion
      ) {
        vu.baseTagsFor = {
          group: this.groupPath,
          scenarioName: vu.scenarioName,
          scenarioTags: vu.scenarioTags,
          vuTagsVersion: vu.vuTagsVersion,
        };
        vu.baseTagSet = withSystemTagsFiltered(vu, this.currentTags());
      }
      return vu.baseTagSet;
    },
    vuTagsChanged() {
      vu.vuTagsVersion++;
    },
    emit(sample) {
      this.record(sample.metric, sample.type, sample.contains, sample.value, sample.tags, sample.time);
    },
    record(metric, type, contains, value, tags, time) {
      buffer.add(metric, type, contains, value, withSystemTagsFiltered(vu, tags), time);
      flushIfFull(vu);
    },
    recordHttp(requestId, tags) {
      buffer.addHttp(requestId, tags ?? this.baseTags());
      flushIfFull(vu);
    },
    httpSync(reqs: RequestTuple[], limits?: BatchLimits): ResponseTuple[] {
      // Samples wait for the end of the iteration (or a full buffer, or a sleep): one message per
      // iteration instead of one per request keeps the main thread free for the network.
      let call: BridgeCall;
      if (limits && reqs.length > 1) call = { batch: reqs, limits, first: 0 };
      else {
        const single: HttpCall = [0];
        for (let i = 0; i < reqs.length; i++) single.push(reqs[i]!);
        call = single;
      }
      const answers = callMainThread(vu, call) as ResponseTuple[];
      let sent = 0;
      let received = 0;
      for (let i = 0; i < answers.length; i++) {
        sent += answers[i]![Res.sent];
        received += answers[i]![Res.received];
      }
      vu.sentBytes += sent;
      vu.receivedBytes += received;
      return answers;
    },
    httpPost(reqs) {
      const call = ++lastHttpCall;
      sendHttp(vu, reqs, call);
      return call;
    },
    onHttpEvent: undefined,
    jarSync(op: JarOp): JarAnswer {
      return callMainThread(vu, { jar: op, resetJar: false }) as JarAnswer;
    },
    grpcSync(op) {
      const answer = callMainThread(vu, { grpc: op, resetJar: false }) as GrpcAnswer;
      rt.countTraffic(answer.sent, answer.received);
      return answer;
    },
    grpcPost(op) {
      vu.transport.send({ grpcAsync: op });
    },
    onGrpcEvent: undefined,
    countTraffic(sent, received) {
      vu.sentBytes += sent;
      vu.receivedBytes += received;
    },
    pending: new PendingWork(),
    sleepMs(ms) {
      flush(vu);
      const end = performance.now() + ms;
      for (let left = ms; left > 0; left = end - performance.now()) {
        if (wait(signals, INTERRUPT, 0, left) === 'not-equal') return;
      }
    },
    checkInterrupted() {
      if (Atomics.load(signals, INTERRUPT) !== 0) throw new InterruptSignal();
    },
    log(level, message, fields) {
      post(vu, fields ? { t: 'log', level, message, fields } : { t: 'log', level, message });
    },
    declareMetric(name, type, contains) {
      const builtin = BUILTIN_METRICS[name];
      const prev = declared.get(name) ?? builtin;
      if (prev && prev.type !== type) {
        throw new Error(`metric '${name}' already exists but with type ${prev.type}, instead of ${type}`);
      }
      declared.set(name, { type, contains });
    },
    abortTest(reason) {
      throw new AbortSignal(reason);
    },
    markFailed(reason) {
      vu.failReason = reason;
    },
    readFile(p, binary) {
      if (rt.phase !== 'init') throw new Error('open() can be used only in the init context');
      const abs = path.resolve(init.bundle.scriptDir, p);
      const file = initFiles.read(abs);
      if (file.bytes) {
        // Each VU gets its own string, and its own ArrayBuffer, which the script may write into.
        const bytes = file.bytes;
        return binary
          ? new Uint8Array(bytes).buffer
          : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      }
      throw openError(abs, file);
    },
    initFile: (absPath) => initFiles.read(absPath),
    forgetJar(id) {
      // Every jar V8 reports in this turn goes in one message.
      if (vu.freedJars.length === 0) setImmediate(postFreedJars);
      vu.freedJars.push(id);
    },
    awaitingCollection(delta) {
      vu.awaitingCollection += delta;
      if (delta > 0) vu.madeSinceCollection += delta;
    },
  };
  return rt;
}

/** open()'s errors in k6's words, with the Go function k6 names above the script's frames. */
function openError(abs: string, file: Exclude<InitFile, { bytes: Uint8Array }>): Error {
  let message: string;
  switch (file.failure) {
    case 'never-opened':
      message = `open() can't be used with files that weren't previously opened during initialization (__VU==0), path: ${goQuote(abs)}`;
      break;
    case 'directory':
      message = `open() can't be used with directories, path: ${goQuote(abs)}`;
      break;
    case 'missing':
      message = `stat ${abs}: no such file or directory`;
      break;
    case 'unreadable':
      message = goPathError('open', abs, file.error);
  }
  return Object.defineProperty(goError(message), 'goFrame', {
    value: 'go.k6.io/k6/internal/js.(*Bundle).setInitGlobals.func3',
  });
}
