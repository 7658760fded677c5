// `scripts/require-env.ts NAME...`: exits 2 naming every variable that is unset or still a placeholder.
import { requireEnvCommand } from './lib/require-env.js';

process.exit(requireEnvCommand());
