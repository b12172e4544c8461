import { ESLint } from 'eslint';

/** The layer rule (eslint.config.mjs, boundaries/dependencies) refuses an import up the stack and allows one down. */
describe('layers', () => {
  // Only the layer rule, without type information: a second instead of a whole type-checked program.
  const eslint = new ESLint({
    cwd: `${__dirname}/..`,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ruleFilter: ({ ruleId }) => ruleId === 'boundaries/dependencies',
  });
  const lint = async (filePath: string, text: string) =>
    (await eslint.lintText(text, { filePath }))[0].messages.map((m) => `${m.ruleId}: ${m.message}`);

  it('common may not import the platform', async () => {
    expect(
      await lint(
        'src/common/http/layer-probe.ts',
        "import type { Principal } from '../../platform/auth/principal';\nexport type P = Principal;\n",
      ),
    ).toEqual([
      'boundaries/dependencies: There is no policy allowing dependencies from elements of type "common" to elements of type "platform"',
    ]);
  });

  it('the database may not import a module', async () => {
    expect(
      await lint(
        'src/database/layer-probe.ts',
        "import { MemberEntity } from '../modules/members/member.entity';\nexport const E = MemberEntity;\n",
      ),
    ).toEqual([
      'boundaries/dependencies: There is no policy allowing dependencies from elements of type "database" to elements of type "modules"',
    ]);
  });

  it('the platform may not import a module (a feature that grows a controller is a module)', async () => {
    expect(
      await lint(
        'src/platform/outbox/layer-probe.ts',
        "import { WebhookEndpointsService } from '../../modules/webhook-endpoints/webhook-endpoints.service';\nexport const S = WebhookEndpointsService;\n",
      ),
    ).toEqual([
      'boundaries/dependencies: There is no policy allowing dependencies from elements of type "platform" to elements of type "modules"',
    ]);
  });

  it('a module may import the layers below it, and an entry point every layer', async () => {
    expect(
      await lint(
        'src/modules/layer-probe.ts',
        "import { AppError } from '../common/errors/app-error';\nimport { Database } from '../database/database.service';\nexport const x = [AppError, Database];\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'src/layer-probe.ts',
        "import { MembersModule } from './modules/members/members.module';\nexport const x = MembersModule;\n",
      ),
    ).toEqual([]);
  });
});
