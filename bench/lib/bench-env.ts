// A benchmark's BENCH_* integer settings: the value, or its default, or one line and exit 2.

/** BENCH_<name> as an integer in [1, max] (default `fallback`); anything else ends the bench. */
export function benchInt(name: string, fallback: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!(Number.isInteger(value) && value >= 1 && value <= max)) {
    console.error(`${name} must be an integer in [1, ${max}]`);
    process.exit(2);
  }
  return value;
}
