// What the page's script finds on the page besides its own code: uPlot (inlined before it) and the
// counters the browser tests read.
import type uPlotType from 'uplot';

declare global {
  const uPlot: typeof uPlotType;
  interface Window {
    __loadlab: { charts: unknown[]; renders: number; updates: number; snapshots: number; finished: boolean };
  }
}
