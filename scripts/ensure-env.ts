// `npm run env:init`: writes the secrets the lab needs into .env, never overwriting one (scripts/lib/env-file.ts).
import { ensureEnvCommand } from './lib/env-file.js';

ensureEnvCommand();
