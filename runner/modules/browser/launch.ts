// k6/browser's launch recipe (K6_BROWSER_* variables, the lab's flags) lives in k6-format, shared with
// the dev kit, the docs server and stack:verify.
export * from '@loadlab/k6-format/browser-launch';
