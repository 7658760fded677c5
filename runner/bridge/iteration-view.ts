// What an iteration sees of its scenario and test (k6/execution): the main thread sends it with
// each iteration, the worker's modules read it.

export interface IterationView {
  scenario: {
    name: string;
    executor: string;
    startTime: number;
    iterationInTest: number;
    progress: number;
    env: Record<string, string>;
    tags: Record<string, string>;
    exec: string;
  };
  iterationInScenario: number;
  iterationInInstance: number;
  testOptions: Record<string, unknown>;
}
