import assert from 'node:assert/strict';
import { summarySamples, type SummaryMetric } from './summary.js';

const metric = (
  type: SummaryMetric['type'],
  contains: SummaryMetric['contains'],
  values: SummaryMetric['values'],
) => ({ type, contains, values }) as SummaryMetric;

describe('k6-format summarySamples: how many samples a handleSummary metric stands on', () => {
  it("a rate's passes and fails, with its passes as hits; none when k6 left them out", () => {
    assert.deepEqual(summarySamples(metric('rate', 'default', { rate: 0.25, passes: 1, fails: 3 })), {
      samples: 4,
      hits: 1,
    });
    assert.deepEqual(summarySamples(metric('rate', 'default', { rate: 0, passes: 0, fails: 0 })), {
      samples: 0,
      hits: 0,
    });
    assert.deepEqual(summarySamples(metric('rate', 'default', { rate: 0 })), {});
  });

  it("a trend's count, else 0 for a time trend of zeros (k6's empty trend), else unknown", () => {
    assert.deepEqual(summarySamples(metric('trend', 'time', { count: 7, avg: 0, min: 0, max: 0 })), {
      samples: 7,
    });
    assert.deepEqual(summarySamples(metric('trend', 'time', { avg: 0, min: 0, max: 0, 'p(95)': 0 })), {
      samples: 0,
    });
    assert.deepEqual(summarySamples(metric('trend', 'time', { avg: 3, min: 1, max: 5 })), {});
    assert.deepEqual(summarySamples(metric('trend', 'default', { avg: 0, min: 0, max: 0 })), {});
  });

  it('says nothing of a counter or a gauge, whose values do not tell', () => {
    assert.deepEqual(summarySamples(metric('counter', 'default', { count: 0, rate: 0 })), {});
    assert.deepEqual(summarySamples(metric('gauge', 'default', { value: 0, min: 0, max: 0 })), {});
  });
});
