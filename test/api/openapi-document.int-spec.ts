import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { createHttpApp } from '../../src/http-app';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from '../../src/platform/openapi/openapi.controller';

const COMMITTED = join(__dirname, '..', '..', 'docs', 'openapi.json');

/**
 * docs/openapi.json is the published contract, committed so that every change to it is reviewed
 * in a diff: the document the API serves must be exactly that file.
 */
describe('docs/openapi.json', () => {
  it('is the document the API serves (regenerate with `npm run openapi:write` and review the diff)', async () => {
    const app = await createHttpApp(loadConfig(), { logger: false });
    const served = `${JSON.stringify(app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT).document, null, 2)}\n`;
    await app.close();
    const committed = readFileSync(COMMITTED, 'utf8');
    if (served === committed) return;
    const a = committed.split('\n');
    const b = served.split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    throw new Error(
      `docs/openapi.json differs from the served document from line ${line + 1}:\n` +
        `  committed: ${a[line]?.trim()}\n  served:    ${b[line]?.trim()}\n` +
        'Run `npm run openapi:write`, review the diff and commit it with the change.',
    );
  });
});
