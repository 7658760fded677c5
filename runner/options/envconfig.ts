// k6 reads its K6_* variables with envconfig: a value that does not convert is one error, worded
// alike for every option.

/** envconfig's error for `text` in `variable`, which k6 assigns to its Options `field` of `goType`. */
export function envconfigError(
  variable: string,
  field: string,
  text: string,
  goType: string,
  details: string,
): string {
  return `envconfig.Process: assigning ${variable} to ${field}: converting '${text}' to type ${goType}. details: ${details}`;
}
