// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The layers, bottom to top: each may import only from itself and the layers before it. */
const LAYERS = ['config', 'common', 'database', 'platform', 'modules', 'entry'];

const layerPolicies = LAYERS.map((layer, i) => ({
  from: { element: { type: layer } },
  allow: { to: { element: { types: { anyOf: LAYERS.slice(0, i + 1) } } } },
}));

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'data/**',
      'coverage/**',
      'node_modules/**',
      'bench/.build/**',
      'bench/results/**',
      '**/*.tmp.*',
      'sdk/dist/**',
      // openapi-typescript's output (npm run sdk:generate), checked against the document by a test instead.
      'sdk/src/generated/**',
      // A user's program against the packed SDK: compiled with tsc --strict by test/system/sdk.int-spec.ts.
      'sdk/test/consumer/**',
    ],
  },

  // bench/ and the config files are plain Node ESM: JS rules only, no type information.
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_arg`: a parameter an interface requires; `{ secret: _secret, ...rest }`: a field left out of `rest`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },

  // Specs are outside tsconfig.json (the build); tsconfig.test.json covers them and the rest of the tree.
  {
    files: ['src/**/*.spec.ts', 'test/**/*.ts'],
    languageOptions: {
      globals: globals.jest,
      parserOptions: { projectService: false, project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // @types/jest types the asymmetric matchers (expect.any, expect.stringMatching, expect.objectContaining)
      // as `any`, so every expected literal that uses one would trip this rule.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // Test doubles stand in for async interfaces with `async () => value`.
      '@typescript-eslint/require-await': 'off',
    },
  },

  // The SDK (sdk/): its own package, ESM, type-checked by sdk/tsconfig.test.json (its specs included).
  {
    files: ['sdk/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: './sdk/tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // It runs in browsers too: fetch and the web platform only. The webhook helper (`@church-api/sdk/webhooks`,
  // for Node receivers) is the one file that may use node:crypto.
  {
    files: ['sdk/src/**/*.ts'],
    ignores: ['sdk/src/webhooks.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(node:|fs$|path$|crypto$|http$|https$|stream$|buffer$)',
              message: 'The SDK runs in browsers: no Node built-ins outside sdk/src/webhooks.ts.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        'Buffer',
        'process',
        'require',
        '__dirname',
        '__filename',
        'global',
        'setImmediate',
      ],
    },
  },
  {
    files: ['sdk/test/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: { '@typescript-eslint/require-await': 'off' },
  },

  // Layers: config → common → database → platform → modules → entry points; sdk stands alone.
  // Specs, like test/, may import anything.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } },
      'boundaries/elements': [
        { type: 'config', pattern: 'src/config', partialMatch: false },
        { type: 'common', pattern: 'src/common', partialMatch: false },
        { type: 'database', pattern: 'src/database', partialMatch: false },
        { type: 'platform', pattern: 'src/platform', partialMatch: false },
        { type: 'modules', pattern: 'src/modules', partialMatch: false },
        { type: 'sdk', pattern: 'src/sdk', partialMatch: false },
        // The rest, src/*.ts and src/cli/: entry points, which may import every layer.
        { type: 'entry', pattern: 'src', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            ...layerPolicies,
            { from: { element: { type: 'sdk' } }, allow: { to: { element: { type: 'sdk' } } } },
          ],
        },
      ],
    },
  },

  prettier,
);
