// Type-aware lint: an async harness that drops a promise loses a fault, so
// no-floating-promises and no-misused-promises are errors.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'reports/**',
      'dist/**',
      'bin/**',
      'eslint.config.js',
      '**/*.tmp.ts',
      'test/package/fixtures/**',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'Use the trial Rng (src/core/rng.ts).',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Use the trial Clock (src/core/clock.ts).',
        },
      ],
    },
  },
  {
    files: [
      'src/core/clock/**',
      'src/core/rng.ts',
      '**/*.test.ts',
      'test/**',
      'bench/**',
      'src/cli/**',
      'src/report/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
