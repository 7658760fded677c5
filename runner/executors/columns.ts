import { formatDuration } from '@loadlab/k6-format/duration';
import { fixedDuration } from './fixed-width.js';

/** shared-iterations' time column: "1.0s/10m0s" even after its maxDuration (k6 prints it so). */
export function timeColumnFixed(spent: number, d: number): string {
  return `${fixedDuration(spent, d)}/${formatDuration(d)}`;
}
