// Container healthcheck for the Node services: exit 0 when the URL answers 2xx within 2 s.
// Plain JavaScript on purpose: it runs in the production image without tsx, curl or wget.
const url = process.argv[2] ?? process.env.HEALTHCHECK_URL;
if (!url) {
  console.error('healthcheck: pass a URL or set HEALTHCHECK_URL');
  process.exit(2);
}
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  console.error(`healthcheck: ${url}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
