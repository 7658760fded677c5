// The one line a failed build of the VU host addon is named by, in the run's warning.
import assert from 'node:assert/strict';
import { buildFailure } from './vu-host-addon.js';

describe('runner/host/native/vu-host-addon: the line that says why the build failed', () => {
  it("names the compiler's first error, a tool not found, else node-gyp's own line", () => {
    const compileError = [
      'gyp info spawn make',
      "make: Entering directory '/tmp/x/build'",
      '  CXX(target) Release/obj.target/vu_host/vu_host.o',
      '/usr/include/node/node.h:1247:7: warning: cast between incompatible function types',
      '../vu_host.cc:1100:9: error: expected primary-expression before ‘;’ token',
      '../vu_host.cc:1101:1: error: another',
      'gyp ERR! stack Error: `make` failed with exit code: 2',
    ].join('\n');
    assert.equal(
      buildFailure(compileError),
      '../vu_host.cc:1100:9: error: expected primary-expression before ‘;’ token',
    );
    const noCompiler = [
      "FileNotFoundError: [Errno 2] No such file or directory: 'g++'",
      'gyp ERR! configure error ',
      'gyp ERR! stack Error: `gyp` failed with exit code: 1',
    ].join('\n');
    assert.equal(buildFailure(noCompiler), "FileNotFoundError: [Errno 2] No such file or directory: 'g++'");
    const onlyGyp = [
      'gyp info it worked',
      'make: *** [vu_host.target.mk:111: x.o] Error 1',
      'gyp ERR! stack Error: `make` failed with exit code: 2',
    ].join('\n');
    assert.equal(buildFailure(onlyGyp), 'make: *** [vu_host.target.mk:111: x.o] Error 1');
    assert.equal(
      buildFailure('gyp ERR! stack Error: `make` failed with exit code: 2\n'),
      'Error: `make` failed with exit code: 2',
    );
    assert.equal(buildFailure(''), 'the build failed');
  });
});
