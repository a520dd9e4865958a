import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import tseslint from 'typescript-eslint';
import layout from './scripts/eslint-boundaries.mjs';

// A kebab-case word: lower-case letters and digits, joined by single hyphens.
const KEBAB_CASE = '+([a-z0-9])*(-+([a-z0-9]))';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/migrations/**', 'coverage/**', '.tsbuild/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { layout },
    rules: { 'layout/boundaries': 'error' },
  },
  {
    // No file reaches itself through its imports (ARCHITECTURE.md, "Boundaries"). Packages in node_modules are not
    // walked (ignoreExternal); the workspace packages (@proxy/*) are internal, so a cycle across packages counts. Test files are not
    // checked from: no module imports one, so none is on a cycle.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.e2e.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/internal-regex': '^@proxy/',
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Names (CODE_STYLE.md): files and folders are kebab-case, a file's role a dotted part before the extension
    // (proxies.routes.ts, cold-load.repository.test.ts, vite.config.ts); React components too (trend-chart.tsx).
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*': `${KEBAB_CASE}*(.${KEBAB_CASE})` },
        { errorMessage: 'File name "{{ target }}" is not kebab-case (CODE_STYLE.md, "Names"): use e.g. user-menu.tsx' },
      ],
      'check-file/folder-naming-convention': [
        'error',
        { '**/': KEBAB_CASE },
        { errorMessage: 'Folder "{{ target }}" is not kebab-case (CODE_STYLE.md, "Names")' },
      ],
    },
  },
  {
    // Promises are awaited or handled (CODE_STYLE.md, "Async"). Type-aware: every .ts/.tsx file is read with the
    // TypeScript project that includes it (the workspaces' tsconfig.json files); the few in none are read with the base
    // options (allowDefaultProject), and a new file in no project fails to parse, so none goes unchecked. The .js/.mjs
    // tooling (scripts/*.mjs, build.mjs, this file) is in no TypeScript project and is not type-checked.
    // An event prop (onClick, onFinish...) takes a function that returns nothing (checksVoidReturn, attributes
    // included): the handler is written `() => void save()` and save settles its own failures.
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'scripts/*.test.ts', 'packages/contract/scripts/*.ts'],
          defaultProject: 'tsconfig.base.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // React Router's navigate answers a promise (in a data router) that settles when the navigation is done; a
          // failed load shows in the route's error element, and it rejects only for a target off this origin, which the
          // console never builds (a redirect from the URL passes getSafeRedirect). So a navigation may float, as it did
          // in React Router 6 (react-router issue 12348).
          allowForKnownSafeCalls: [{ from: 'package', package: 'react-router', name: 'NavigateFunction' }],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
