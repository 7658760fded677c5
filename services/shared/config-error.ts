// A setting in the environment is wrong: every entry point prints its one-line message and exits 2,
// which scripts tell apart from a runtime failure (exit 1).
export class ConfigError extends Error {}
