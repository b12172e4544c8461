import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import hbs from 'hbs';

/** Where the templates are: next to this file in src/ (tests) and in dist/ (nest-cli.json copies them). */
export const TEMPLATES_DIR = join(__dirname, 'templates');

/**
 * The server-rendered pages (OAuth sign-in and consent): Handlebars through `hbs`, the view engine
 * of the NestJS MVC recipe. One layout (templates/layout.hbs, applied to every view), partials from
 * templates/partials. Handlebars escapes every `{{value}}`; the few `{{{…}}}` hold markup this code
 * builds with escaped values (see page-text.ts).
 */
export function configureViews(app: NestExpressApplication): void {
  const partials = join(TEMPLATES_DIR, 'partials');
  for (const file of readdirSync(partials).filter((f) => f.endsWith('.hbs'))) {
    hbs.registerPartial(file.slice(0, -'.hbs'.length), readFileSync(join(partials, file), 'utf8'));
  }
  app.setBaseViewsDir(TEMPLATES_DIR);
  app.setViewEngine('hbs');
}
