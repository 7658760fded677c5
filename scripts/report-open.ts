// `npm run report:open [-- PATH]`: opens the HTML report where a desktop exists, else prints its path.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openInBrowser } from '../report/open.js';

const path = resolve(process.argv[2] ?? 'results/report/index.html');
if (!existsSync(path)) {
  console.error(
    `report:open: ${path} does not exist; run npm run test:report (or npm run report -- <files>) first`,
  );
  process.exit(1);
}
if (await openInBrowser(pathToFileURL(path).href)) console.log(`opened ${path}`);
else console.log(path);
