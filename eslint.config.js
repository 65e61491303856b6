// Lint rules for the whole monorepo, including the import boundaries between workspaces
// (docs/decisions.md: web → contracts, metrics; server → contracts, metrics, analysis; sdk → contracts,
// metrics, analysis — the CLI generates demo data with analysis's pure generators).
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const ours = ['contracts', 'metrics', 'analysis', 'sdk', 'server', 'web', 'e2e', 'bench'];

/** The import patterns that keep a workspace to the workspaces it may use. */
function workspacePatterns(allowed) {
  const forbidden = ours.filter((name) => !allowed.includes(name));
  return [
    {
      group: forbidden.map((name) => `@loupe/${name}`),
      message: 'This import crosses a workspace boundary (see docs/decisions.md).',
    },
    {
      group: ['**/apps/*', '**/packages/*', '../../packages/**', '../../apps/**'],
      message: 'Import other workspaces by package name, never by relative path.',
    },
  ];
}

/** Forbid importing any of our workspaces except the allowed ones, by package name or relative path. */
function boundary(files, allowed, extraPatterns = [], ignores = []) {
  return {
    files,
    ...(ignores.length > 0 ? { ignores } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...workspacePatterns(allowed), ...extraPatterns] },
      ],
    },
  };
}

// The server's layers (docs/architecture.md): feature folders named as the product names things,
// each routes -> service -> repository, above the infrastructure folders and below the
// composition root (app.ts, services.ts, repositories.ts), which only entry points and tests use.
const SERVER = ['contracts', 'metrics', 'analysis'];
const SERVER_INFRASTRUCTURE = ['platform', 'db', 'storage', 'http', 'processing'];
const SERVER_FEATURES = [
  'api-keys',
  'auth',
  'curation',
  'datasets',
  'demo',
  'embeddings',
  'explore',
  'export',
  'features',
  'jobs',
  'license',
  'media',
  'metadata',
  'performance',
  'prediction-sets',
  'samples',
  'sdk',
  'settings',
  'setup',
  'state',
  'subsets',
  'support',
  'thumbnails',
  'users',
];
const serverSrc = (folders) => folders.map((folder) => `apps/server/src/${folder}/**`);
const notTheRoot = {
  group: ['**/app.js', '**/services.js', '**/repositories.js', '**/main.js'],
  message:
    'Only entry points and tests use the composition root: take what you need as a constructor or function argument.',
};
// Tests may reach across layers (a migration test reads through a repository).
const TESTS = ['apps/server/src/**/*.test.ts'];
const serverLayers = [
  boundary(serverSrc(SERVER_FEATURES), SERVER, [notTheRoot], TESTS),
  boundary(
    ['apps/server/src/**/*.routes.ts'],
    SERVER,
    [
      notTheRoot,
      {
        group: ['**/*.repository.js'],
        message: 'Routes call services, never repositories.',
      },
    ],
    TESTS,
  ),
  boundary(['apps/server/src/**/*.service.ts', 'apps/server/src/**/*.job.ts'], SERVER, [
    notTheRoot,
    {
      group: ['**/http/**', 'fastify', '**/*.routes.js'],
      message: 'Services and jobs know nothing of HTTP: throw the errors of platform/errors.ts.',
    },
  ]),
  boundary(
    ['apps/server/src/**/*.repository.ts'],
    SERVER,
    [
      notTheRoot,
      {
        group: ['**/*.service.js', '**/*.routes.js', '**/http/**'],
        message: 'Repositories hold SQL and decoding only.',
      },
    ],
    TESTS,
  ),
  boundary(
    serverSrc(SERVER_INFRASTRUCTURE),
    SERVER,
    [
      notTheRoot,
      {
        group: SERVER_FEATURES.map((folder) => `**/${folder}/**`),
        message: 'Infrastructure folders serve the feature folders and import none of them.',
      },
    ],
    TESTS,
  ),
];

// --- Web app (apps/web/src, docs/web.md) ---------------------------------------------------
const webSrc = path.join(import.meta.dirname, 'apps/web/src');
const webFeatures = path.join(webSrc, 'features');

/** The feature a file belongs to (`features/<name>/…`), or null outside features. */
function featureOf(file) {
  const relative = path.relative(webFeatures, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep)[0] ?? null;
}

/**
 * A feature is used from outside only through its index.ts: other features and app/ import
 * `features/<name>` (or its index), never a file inside it; api/, lib/ and components/ are
 * below the features and import none. Test files may also import another feature's test helpers
 * (`features/<name>/testing`).
 */
const featureImports = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      deep: "Import the '{{feature}}' feature through its index.ts ('…/features/{{feature}}'); export what you need there, or move what two features share to components/ or lib/.",
      shared: 'api/, lib/ and components/ are shared by the features and must not import one.',
    },
  },
  create(context) {
    const file = context.filename;
    const own = featureOf(file);
    const relative = path.relative(webSrc, file).split(path.sep);
    const shared = ['api', 'lib', 'components'].includes(relative[0] ?? '');
    const isTest = /\.test\.tsx?$/.test(file) || /[\\/]testing\.tsx?$/.test(file);
    function check(source) {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source.value);
      const feature = featureOf(target);
      if (feature === null || feature === own) return;
      if (shared) return context.report({ node: source, messageId: 'shared' });
      const inner = path.relative(path.join(webFeatures, feature), target);
      if (inner === '' || inner === 'index' || (isTest && inner === 'testing')) return;
      context.report({ node: source, messageId: 'deep', data: { feature } });
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

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
    plugins: {
      'react-hooks': reactHooks,
      'loupe-web': { rules: { 'feature-imports': featureImports } },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'loupe-web/feature-imports': 'error',
    },
  },
  {
    // One query function per key: every read is a queryOptions factory in api/queries/, and
    // hooks spread it (adding `enabled`, `select`, `placeholderData`); keys come from
    // api/queryKeys.ts only.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/api/queries/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ObjectExpression:has(> Property[key.name='queryKey']):has(> Property[key.name='queryFn'])",
          message:
            'Declare a query once, as a queryOptions factory in apps/web/src/api/queries/, and use that factory.',
        },
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: 'Query keys come from apps/web/src/api/queryKeys.ts.',
        },
      ],
    },
  },
  boundary(['packages/contracts/**'], []),
  boundary(['packages/metrics/**'], []),
  // analysis loads nothing of ours: it names the contracts' types only, which vanish when compiled.
  boundary(['packages/analysis/**'], ['contracts']),
  {
    files: ['packages/analysis/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@loupe/contracts',
              allowTypeImports: true,
              message: 'analysis imports only types from the contracts (see docs/decisions.md).',
            },
          ],
        },
      ],
    },
  },
  boundary(['packages/sdk/**'], ['contracts', 'metrics', 'analysis']),
  boundary(['apps/server/**'], SERVER),
  ...serverLayers,
  boundary(['apps/web/**'], ['contracts', 'metrics']),
  boundary(['e2e/**'], ['contracts', 'metrics', 'sdk']),
  boundary(['bench/**'], ['contracts', 'metrics', 'analysis', 'sdk', 'server']),
);
