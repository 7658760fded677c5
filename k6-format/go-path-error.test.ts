import assert from 'node:assert/strict';
import { openSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goPathError } from './go-path-error.js';

function openError(path: string): unknown {
  try {
    openSync(path, 'w');
  } catch (error) {
    return error;
  }
  throw new Error(`${path} opened`);
}

describe('k6-format/go-path-error', () => {
  it("words Node's file errors as Go's os.PathError, with the path as given", () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-patherr-'));
    const missing = join(dir, 'nope', 'x.json');
    assert.equal(
      goPathError('open', missing, openError(missing)),
      `open ${missing}: no such file or directory`,
    );
    assert.equal(goPathError('open', dir, openError(dir)), `open ${dir}: is a directory`);
  });

  it("falls back to the error's own message for codes it does not know", () => {
    assert.equal(goPathError('open', 'a', new Error('odd')), 'open a: odd');
  });
});
