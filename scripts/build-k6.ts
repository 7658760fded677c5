// `npm run build:k6`: bundles the suite (k6/build.ts) and type-checks it against @types/k6.
import { buildSuiteCommand } from '../k6/build.js';

await buildSuiteCommand();
