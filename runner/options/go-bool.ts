// Go's strconv.ParseBool, which k6 reads its boolean flags (cobra) and runtime K6_* booleans with.

const GO_BOOLS: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** `text` as strconv.ParseBool reads it; undefined where Go's call returns an error. */
export function goParseBool(text: string): boolean | undefined {
  return Object.hasOwn(GO_BOOLS, text) ? GO_BOOLS[text] : undefined;
}
