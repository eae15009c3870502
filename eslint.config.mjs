// Lint rules for the sources, tests, bench and build script (the bundles are generated).
// Type-aware rules catch the promise mistakes a hook cannot afford (a floating
// promise is work the host may kill unfinished).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'scripts/**',
      'servers/**',
      'hooks/register.mjs',
      'bench/.work/**',
      '.recall-embed/**',
      '.openviking-server/**',
      'coverage/**',
      '.openviking-server/**',
      '.claude-plugin/types/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A leading underscore names what is unused on purpose (a port's ignored parameter, a field split off).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      // The plugin filters control characters out of text on purpose (escape, printable filters, their tests).
      'no-control-regex': 'off',
    },
  },
  {
    // Sizes a reader holds at once, for the product's code (tests and bench are tables of cases):
    // a function fits a screen and a handful of branches, a file stays under ~300 lines of code.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      complexity: ['error', 20],
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests read JSON, SSE and host answers of any shape.
    files: ['tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
