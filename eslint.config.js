import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      'apps/*/next-env.d.ts',
      '.run/**',
      '.turbo/**',
      'proxy/generated/**',
      'packages/db/src/types/generated/**',
      '**/fixtures/**',
      '**/public/**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Promises nobody awaits lose their errors; switches over unions must cover every case.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // A migration stays as it was written while the tables change after it, so it takes
    // Kysely<any> rather than the generated types of today (Kysely's own advice).
    files: ['packages/db/src/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The admin panel (React): hooks only at the top level of components and hooks, with every
    // value they read in their dependency lists.
    files: ['services/admin/web/src/**/*.tsx', 'services/admin/web/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // SQL lives in repositories: a service states the rules and a route validates and calls it,
    // neither builds a query (issue #19, "one home per rule").
    files: ['services/*/src/**/*.service.ts', 'services/*/src/**/*.routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|selectNoFrom)$/]',
          message: 'Queries belong in a *.repository.ts module; call a repository function here.',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: 'Raw SQL belongs in a *.repository.ts module; call a repository function here.',
        },
      ],
    },
  },
);
