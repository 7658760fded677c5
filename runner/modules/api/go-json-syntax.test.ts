// Go's JSON scanner's words and offsets, as real k6 v1.3 reported them for these bodies through
// Response.json() (fixtures/http-response-json.js holds the runner to it side by side).
import assert from 'node:assert/strict';
import { goJsonSyntaxError, k6JsonErrorPlace } from './go-json-syntax.js';

/** body -> k6's "line L, character C , error: <message>" for it. */
const RECORDED: [string, string][] = [
  ['<!doctype html>', "line 1, character 2 , error: invalid character '<' looking for beginning of value"],
  ['', 'line 1, character 0 , error: unexpected end of JSON input'],
  [
    '{"a": 1,}',
    "line 1, character 9 , error: invalid character '}' looking for beginning of object key string",
  ],
  ['{"a" 1}', "line 1, character 7 , error: invalid character '1' after object key"],
  ['[1, 2 3]', "line 1, character 8 , error: invalid character '3' after array element"],
  ['fals', "line 1, character 4 , error: invalid character ' ' in literal false (expecting 'e')"],
  ['{"a": "x\u0001"}', "line 1, character 10 , error: invalid character '\\x01' in string literal"],
  [
    '{"a": "\\u12G4"}',
    "line 1, character 13 , error: invalid character 'G' in \\u hexadecimal character escape",
  ],
  ['1.', "line 1, character 2 , error: invalid character ' ' after decimal point in numeric literal"],
  ['01', "line 1, character 2 , error: invalid character '1' after top-level value"],
  [
    '{"a":\n  [1,\n   2,,\n  ]}',
    "line 4, character 1 , error: invalid character ',' looking for beginning of value",
  ],
  [
    '{"é": "ü", "b": ?}',
    "line 1, character 18 , error: invalid character '?' looking for beginning of value",
  ],
  [
    "{'a': 1}",
    "line 1, character 3 , error: invalid character '\\'' looking for beginning of object key string",
  ],
];

describe("runner/modules/api/go-json-syntax: Go's JSON errors, placed as k6 places them", () => {
  it('words and places what is not JSON as Go and k6 did', () => {
    for (const [body, expected] of RECORDED) {
      const bytes = new TextEncoder().encode(body);
      const error = goJsonSyntaxError(bytes);
      assert.ok(error, body);
      const { line, character } = k6JsonErrorPlace(body, error.offset);
      assert.equal(`line ${line}, character ${character} , error: ${error.message}`, expected, body);
    }
  });

  it('finds nothing wrong in JSON', () => {
    for (const body of [
      '{"ok": true}',
      ' [1, -2.5e+3, "x\\u00e9", null, false, {}] ',
      '0',
      '"s"',
      '{"a":{"b":[[]]}}',
    ])
      assert.equal(goJsonSyntaxError(new TextEncoder().encode(body)), undefined, body);
  });
});
