import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '.onramp/**', 'tmp/**', 'coverage/**', 'helm/**', '.nx/**', '**/*.js', '**/*.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='only']", message: 'no focused tests' },
      ],
      // Boundaries: a service never imports another service's code; domain stays pure.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
            { sourceTag: 'scope:auth', onlyDependOnLibsWithTags: ['scope:shared', 'scope:auth'] },
            { sourceTag: 'scope:kyc', onlyDependOnLibsWithTags: ['scope:shared', 'scope:kyc'] },
            { sourceTag: 'scope:orders', onlyDependOnLibsWithTags: ['scope:shared', 'scope:orders'] },
            { sourceTag: 'scope:payments', onlyDependOnLibsWithTags: ['scope:shared', 'scope:payments'] },
            { sourceTag: 'scope:settlement', onlyDependOnLibsWithTags: ['scope:shared', 'scope:settlement'] },
            { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhooks'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:e2e', 'scope:tools'] },
            { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:shared', 'scope:tools'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:contracts', 'type:data-access', 'type:feature'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:contracts', 'type:data-access', 'type:feature'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:contracts', 'type:data-access'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts', 'type:domain', 'type:data-access'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', '**/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
