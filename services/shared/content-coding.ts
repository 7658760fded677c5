// Request bodies are taken in the content codings every supported Node line decodes. body-parser
// decodes `zstd` wherever Node's zlib has it (Node 22.15+ and 24, not 20), so the same request got
// 415 on Node 20 and a decode (400 for a body that is not zstd) on 24. Refusing the codings outside
// this set before the parser runs gives one answer on every line: 415, as for any unknown coding.
import type { RequestHandler } from 'express';

/** The codings body-parser decodes on Node 20, 22 and 24 alike. */
const DECODED_ON_EVERY_NODE = new Set(['identity', 'gzip', 'deflate', 'br']);

/** body-parser's own error for an unknown coding, so each service's error handler maps it as it maps body-parser's. */
function unsupportedCoding(coding: string): Error {
  return Object.assign(new Error('content encoding unsupported'), {
    status: 415,
    statusCode: 415,
    expose: true,
    encoding: coding,
    type: 'encoding.unsupported',
  });
}

/** 415 for a body in a content coding some supported Node line would not decode. */
export function refuseCodingsNotDecodedEverywhere(): RequestHandler {
  return (req, _res, next) => {
    // Read as body-parser reads it: the whole header, lowercased.
    const coding = (req.headers['content-encoding'] || 'identity').toLowerCase();
    next(DECODED_ON_EVERY_NODE.has(coding) ? undefined : unsupportedCoding(coding));
  };
}
