// k6/net/grpc against the fixture server (fixtures/grpc/server.ts, a child process on port 0):
// fixtures/grpc.js logs line for line what real k6 logs (calls, response shape, streams of every
// kind, reflection, k6's errors), and fixtures/grpc-load.js writes the same metrics, tags, counts,
// checks and thresholds on both engines.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import { logLines, realK6OrSkip, RUNNER } from '../../testing/log-lines.js';
import { REPO, runLoadlab } from '../../../devkit/loadlab-run.js';
import { realK6 } from '../../../devkit/real-k6.js';
import { firstLine, startScript, untilReady } from '../../../devkit/script-process.js';
import { startInfluxCapture } from '../../testing/influx-capture.js';
import { explain, sideBySide } from '../../testing/side-by-side.js';
import { fileDescriptorSet } from './grpc-descriptors.js';

/** The fixture server in its own process, so that the engines can be run synchronously. */
async function startServer(...args: string[]): Promise<{ addr: string; stop(): void }> {
  // It prints its port, then serves until its stdin ends.
  const server = startScript('runner/modules/fixtures/grpc/server.ts', { args, cwd: REPO, stdin: 'pipe' });
  const port = await untilReady(
    server,
    'the fixture server port',
    async () => firstLine(server.out()),
    30_000,
  );
  return { addr: `127.0.0.1:${port}`, stop: () => server.child.stdin!.end() };
}

const FIXTURE = 'runner/modules/fixtures/grpc.js';

/**
 * A fixture on the runner: `expected` (a line, or a check of the lines) holds there, then, with a
 * real k6, the runner's lines are k6's (skipped with one line without one), both read through
 * `alike` where k6 itself words a line two ways from run to run.
 */
function sameLines(
  context: Mocha.Context,
  fixture: string,
  flags: string[],
  expected: string | ((lines: string[]) => boolean),
  alike: (line: string) => string = (line) => line,
): void {
  const script = `runner/modules/fixtures/${fixture}`;
  const lines = logLines(RUNNER, script, flags);
  const ok = typeof expected === 'string' ? lines.includes(expected) : expected(lines);
  assert.ok(ok, `${String(expected)}\n${lines.join('\n')}`);
  const k6 = realK6OrSkip(context);
  assert.deepEqual(lines.map(alike), logLines(k6, script, flags).map(alike));
}

describe('runner/modules k6/net/grpc', function () {
  this.timeout(120_000);
  let server: { addr: string; stop(): void };
  before(async () => {
    server = await startServer();
  });
  after(() => server?.stop());

  it('fixtures/grpc.js: calls, streams, reflection and errors as k6 v1.3 words them, on the runner', function () {
    const lines = logLines(RUNNER, FIXTURE, ['-e', `GRPC_ADDR=${server.addr}`]);
    const expected = [
      'level=info msg="connect in init: GoError: connecting to a gRPC server in the init context is not supported" source=console',
      'level=info msg="load in VU: GoError: load must be called in the init context" source=console',
      'level=info msg="connect true" source=console',
      'level=info msg="say message hello 12345678901234 string" source=console',
      'level=info msg="invoke \\"loadlab.echo.Echo/Nope\\" GoError: method \\"/loadlab.echo.Echo/Nope\\" not found in file descriptors" source=console',
      'level=info msg="count end" source=console',
      'level=info msg="sum data {\\"count\\":3,\\"joined\\":\\"a,b,c\\"}" source=console',
      'level=info msg="chat data re: two" source=console',
      'level=info msg="fail stream error 5 gone [] code,details,message,error" source=console',
      'level=info msg="reflect true" source=console',
      `level=info msg="unreachable: GoError: connection error: desc = \\"transport: error while dialing: dial tcp 127.0.0.1:1: connect: connection refused\\"" source=console`,
    ];
    for (const line of expected) assert.ok(lines.includes(line), `missing: ${line}\n${lines.join('\n')}`);
  });

  it('fixtures/grpc.js logs the same lines on real k6 and on the runner', function () {
    const k6 = realK6OrSkip(this);
    const flags = ['-e', `GRPC_ADDR=${server.addr}`];
    const expected = logLines(k6, FIXTURE, flags);
    assert.ok(expected.length >= 35, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, FIXTURE, flags), expected);
  });

  it('fixtures/grpc-load.js: same metrics, tags, counts, checks and thresholds on both engines', async function () {
    realK6OrSkip(this);
    const influx = await startInfluxCapture();
    try {
      const { k6, node, differences } = await sideBySide({
        mode: 'plain',
        script: resolve(REPO, 'runner/modules/fixtures/grpc-load.js'),
        args: ['-q', '-e', `GRPC_ADDR=${server.addr}`],
        influx,
      });
      assert.equal(k6.result.code, 0, k6.result.stderr);
      for (const metric of [
        'grpc_req_duration',
        'grpc_streams',
        'grpc_streams_msgs_sent',
        'grpc_streams_msgs_received',
      ]) {
        assert.ok(node.shape.metrics[metric], `${metric} missing on the runner`);
      }
      assert.equal(node.data?.metrics.grpc_streams_msgs_sent?.values.count, 12);
      assert.deepEqual(differences, [], explain(differences, k6, node));
    } finally {
      await influx.close();
    }
  });

  it('fixtures/grpc-fields.js: fields by proto name or lowerCamel, wrong types and unknown fields refused as k6 does', function () {
    sameLines(
      this,
      'grpc-fields.js',
      ['-e', `GRPC_ADDR=${server.addr}`],
      'level=info msg="an unknown field: GoError: unable to serialise request object to protocol buffer: ' +
        'proto: (line 1:13): unknown field \\"color\\"" source=console',
    );
  });

  it('fixtures/grpc-edges.js: params, timeouts and misuse logged the same on real k6 and on the runner', function () {
    const line = 'level=info msg="stream timeout 4" source=console';
    sameLines(this, 'grpc-edges.js', ['-e', `GRPC_ADDR=${server.addr}`], line);
  });

  it('fixtures/grpc-reflect.js: reflection v1, and v1alpha where a server has only that, as k6 tries them', async function () {
    const script = 'runner/modules/fixtures/grpc-reflect.js';
    const v1alphaOnly = await startServer('v1alpha');
    try {
      for (const addr of [server.addr, v1alphaOnly.addr]) {
        const lines = logLines(RUNNER, script, ['-e', `GRPC_ADDR=${addr}`]);
        assert.ok(lines.includes('level=info msg="say 0 reflected 7" source=console'), lines.join('\n'));
        if (realK6())
          assert.deepEqual(lines, logLines(realK6OrSkip(this), script, ['-e', `GRPC_ADDR=${addr}`]));
      }
    } finally {
      v1alphaOnly.stop();
    }
  });

  it('fixtures/grpc-health.js: healthCheck answers and errors, same lines on real k6 and on the runner', function () {
    const line = 'level=info msg="health down {\\"status\\":2} status 2 false" source=console';
    sameLines(this, 'grpc-health.js', ['-e', `GRPC_ADDR=${server.addr}`], line);
  });

  it('fixtures/grpc-protoset.js: loadProtoset and its errors, same lines on real k6 and on the runner', function () {
    const echo = protoLoader.loadSync(resolve(REPO, 'runner/modules/fixtures/grpc/echo.proto'));
    const note = echo['loadlab.echo.Note'] as protoLoader.MessageTypeDefinition<object, object>;
    const protoset = join(mkdtempSync(join(tmpdir(), 'loadlab-grpc-')), 'echo.protoset');
    writeFileSync(protoset, fileDescriptorSet(note.fileDescriptorProtos));
    const flags = ['-e', `GRPC_ADDR=${server.addr}`, '-e', `PROTOSET=${protoset}`];
    sameLines(this, 'grpc-protoset.js', flags, 'level=info msg="say 0 from a protoset x" source=console');
  });

  it("fixtures/grpc-load-paths.js: a proto file not there, by every kind of path, in k6's resolver's words", function () {
    const line = (paths: string, file: string, error: string) =>
      `level=info msg="${paths} ${file}: GoError: ${error}" source=console`;
    sameLines(
      this,
      'grpc-load-paths.js',
      [],
      line(
        '[\\"..\\"]',
        'missing.proto',
        `../missing.proto: stat ${resolve(REPO, 'runner/modules/missing.proto')}: no such file or directory`,
      ),
    );
  });

  it("fixtures/grpc-open-stream.js: streams open at the end of the test are stopped with k6's warning", function () {
    const warning =
      'level=warning msg="no handlers for error registered, but an error happened: rpc error: code = DeadlineExceeded desc = context deadline exceeded" streamMethod=/loadlab.echo.Echo/Chat';
    const twice = (lines: string[]) => lines.filter((l) => l === warning).length === 2;
    // k6 words a stream's deadline as its own context's or as the server's status, whichever comes
    // first (seen both ways in one run of two streams): either is the same event.
    const deadline = (line: string) =>
      line.replace('desc = Deadline exceeded', 'desc = context deadline exceeded');
    sameLines(this, 'grpc-open-stream.js', ['-e', `GRPC_ADDR=${server.addr}`], twice, deadline);
  });

  it('a connect in the init context fails the run as on k6 (exit 107, k6 line)', async function () {
    const script = resolve(REPO, 'runner/modules/fixtures/grpc-init-connect.js');
    const line = /GoError: connecting to a gRPC server in the init context is not supported/;
    for (const engine of realK6() ? (['k6', 'node'] as const) : (['node'] as const)) {
      const run = await runLoadlab(['-q', script], { engine, env: { GRPC_ADDR: server.addr } });
      assert.equal(run.code, 107, `${engine}: ${run.stderr}`);
      assert.match(run.stderr, line);
    }
  });
});
