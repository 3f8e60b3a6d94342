import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'src/generated/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // A `default:` on a question type would take in silently a type added later: each type gets
    // its case, or a table keyed by the type (docs/architecture.md, "How to add a question type").
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "SwitchStatement[discriminant.property.name='type'] > SwitchCase[test=null]",
          message:
            'No default on a type: give each question type its case, or use a Record<QuestionType, ...> table.',
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'src/cli/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // A test run prints nothing but Jest's report: suites assert what they read, and a figure
    // goes through reportFigure (printed with FIGURES=1), the one place allowed to print.
    files: ['tests/**'],
    rules: { 'no-console': ['error', {}] },
  },
  {
    files: ['tests/helpers/figures.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests and the benchmark read JSON payloads whose shape the assertions check.
    files: ['scripts/**', 'tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Scripts of the Node 22 tool folders (tools/*), run as ES modules on Node itself.
    files: ['tools/**/*.mjs'],
    languageOptions: {
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' },
    },
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
