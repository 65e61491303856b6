// Lint rules for the whole monorepo, including the import boundaries between workspaces
// (docs/decisions.md: web → contracts, metrics; server → contracts, metrics, analysis; sdk → contracts,
// metrics, analysis — the CLI generates demo data with analysis's pure generators).
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const ours = ['contracts', 'metrics', 'analysis', 'sdk', 'server', 'web', 'e2e', 'bench'];

/** Forbid importing any of our workspaces except the allowed ones, by package name or relative path. */
function boundary(files, allowed) {
  const forbidden = ours.filter((name) => !allowed.includes(name));
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: forbidden.map((name) => `@loupe/${name}`),
              message: 'This import crosses a workspace boundary (see docs/decisions.md).',
            },
            {
              group: ['**/apps/*', '**/packages/*', '../../packages/**', '../../apps/**'],
              message: 'Import other workspaces by package name, never by relative path.',
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'sdk/python/**',
      '.bench-data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  boundary(['packages/contracts/**'], []),
  boundary(['packages/metrics/**'], []),
  boundary(['packages/analysis/**'], []),
  boundary(['packages/sdk/**'], ['contracts', 'metrics', 'analysis']),
  boundary(['apps/server/**'], ['contracts', 'metrics', 'analysis']),
  boundary(['apps/web/**'], ['contracts', 'metrics']),
  boundary(['e2e/**'], ['contracts', 'sdk']),
  boundary(['bench/**'], ['contracts', 'metrics', 'analysis', 'sdk', 'server']),
);
