import { writeFileSync } from 'node:fs';
import { dump } from 'js-yaml';
import { Command, CommandRunner, Option } from 'nest-commander';
import { loadConfig } from '../../config/app-config';
import { createHttpApp } from '../../http-app';
import { OPENAPI_DOCUMENT, OpenApiDocumentHolder } from '../../platform/openapi/openapi.controller';

@Command({ name: 'openapi:export', description: 'Write the OpenAPI description (no database needed)' })
export class OpenApiExportCommand extends CommandRunner {
  async run(_args: string[], options: { yaml?: boolean; out?: string }): Promise<void> {
    const app = await createHttpApp(loadConfig(), { logger: false });
    const document = app.get<OpenApiDocumentHolder>(OPENAPI_DOCUMENT).document;
    await app.close();
    const text = options.yaml ? dump(document, { noRefs: true }) : `${JSON.stringify(document, null, 2)}\n`;
    if (options.out) {
      writeFileSync(options.out, text);
      process.stderr.write(`wrote ${options.out}\n`);
    } else process.stdout.write(text);
  }

  @Option({ flags: '--yaml', description: 'YAML instead of JSON' }) yaml() {
    return true;
  }
  @Option({ flags: '--out <file>', description: 'file to write (default stdout)' }) out(v: string) {
    return v;
  }
}
