// The script injected into every page to measure Core Web Vitals with the browser's own
// PerformanceObserver entries (written here, not the web-vitals library, so nothing is fetched).
// It reports raw observations to the Node side through a binding (and returns them from the flush
// Node calls before closing a page, since binding calls can trail behind it); finalising a page's
// LCP/CLS/INP (which keep changing while the page lives) is decided in Node (vitals.ts).
// Kept as a string: a serialized TS function could carry transpiler helpers the page lacks.

export const VITALS_BINDING = '__loadlabVital';

export const VITALS_SCRIPT = `(() => {
  if (window.top !== window) return; // vitals belong to the top document only
  const latest = {}; // what was sent so far, returned by the flush (binding calls may arrive late)
  const send = (name, value) => {
    if (name !== 'hidden') latest[name] = value;
    const report = window.${VITALS_BINDING};
    if (typeof report === 'function') report({ doc: docId, url: location.href, name, value }).catch(() => {});
  };
  const docId = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const observers = [];
  const observe = (type, onEntries, extra) => {
    try {
      const po = new PerformanceObserver((list) => onEntries(list.getEntries()));
      po.observe({ type, buffered: true, ...extra });
      observers.push([po, onEntries]);
    } catch (_) { /* entry type not supported by this browser */ }
  };

  observe('paint', (entries) => {
    for (const e of entries) if (e.name === 'first-contentful-paint') send('fcp', e.startTime);
  });

  // LCP stops changing after the first user input, as the standard defines it.
  let inputSeen = false;
  // The first input also makes LCP final: Node reports it then (as the web-vitals library k6 uses does).
  const onInput = () => { if (!inputSeen) { inputSeen = true; send('input', 0); } };
  for (const type of ['keydown', 'pointerdown']) addEventListener(type, onInput, { capture: true, once: true });
  observe('largest-contentful-paint', (entries) => {
    if (inputSeen) return;
    const last = entries[entries.length - 1];
    if (last) send('lcp', last.startTime);
  });

  // CLS: the largest session window (shifts < 1 s apart, window <= 5 s) of shifts without recent input.
  let windowValue = 0, windowFirst = 0, windowLast = 0, cls = 0;
  observe('layout-shift', (entries) => {
    for (const e of entries) {
      if (e.hadRecentInput) continue;
      if (windowValue > 0 && e.startTime - windowLast < 1000 && e.startTime - windowFirst < 5000) {
        windowValue += e.value;
      } else {
        windowValue = e.value;
        windowFirst = e.startTime;
      }
      windowLast = e.startTime;
      if (windowValue > cls) {
        cls = windowValue;
        send('cls', cls);
      }
    }
  });
  send('cls', 0); // a page without shifts scores 0, not "no value"

  // FID from the first-input entry; INP = the slowest interaction seen so far (first input included).
  let inp = -1;
  const interaction = (duration) => {
    if (duration > inp) { inp = duration; send('inp', inp); }
  };
  observe('first-input', (entries) => {
    const e = entries[0];
    if (!e) return;
    send('fid', e.processingStart - e.startTime);
    interaction(e.duration);
  });
  observe('event', (entries) => {
    for (const e of entries) if (e.interactionId) interaction(e.duration);
  }, { durationThreshold: 16 });

  // TTFB: time from navigation start to the first response byte of this document.
  const ttfb = () => {
    const nav = performance.getEntriesByType('navigation')[0];
    if (nav && nav.responseStart > 0) send('ttfb', Math.max(0, nav.responseStart - (nav.activationStart || 0)));
  };
  if (document.readyState === 'loading') addEventListener('DOMContentLoaded', ttfb, { once: true });
  else ttfb();

  // Called by Node before it closes the page: let a frame paint, then deliver what observers hold
  // (their callbacks are low-priority tasks that a quick close would otherwise lose).
  Object.defineProperty(window, '${VITALS_BINDING}Flush', { value: async () => {
    await new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(r)); setTimeout(r, 1000); });
    // A page with text gets its first contentful paint shortly after a frame; wait for it (<= 1 s)
    // rather than close a page that just has not reported yet.
    const hasText = () => !!(document.body && document.body.innerText.trim());
    for (let waited = 0; !('fcp' in latest) && hasText() && waited < 1000; waited += 50) {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      if (fcp) { send('fcp', fcp.startTime); break; }
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const [po, onEntries] of observers) onEntries(po.takeRecords());
    ttfb();
    return { doc: docId, url: location.href, values: latest };
  } });

  // Tell Node the document is going away so it can finalise LCP/CLS/INP now.
  addEventListener('pagehide', () => send('hidden', 0), { capture: true });
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') send('hidden', 0); });
})();`;
