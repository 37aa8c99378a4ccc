import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { readdirSync } from 'node:fs';

// One direction (bulletproof-react): shared code → features → app.
// Import cycles are refused by scripts/import-cycles.test.ts (TypeScript compiler API, scripts/import-graph.ts):
// import-x/no-cycle needs unrs-resolver, whose platform binaries this registry lacks.
const onlyAppComposes = { group: ['@/app', '@/app/*'], message: 'Only src/app (and main.tsx) composes the app.' };
const sharedCode = ['src/components/**', 'src/lib/**', 'src/stores/**', 'src/config/**'];
const crossFeature =
  'A feature does not import another feature; move the shared piece to components/, lib/ or stores/.';
const features = readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const neverTheConsole = {
  group: ['**/admin/*', '**/admin/**'],
  message: 'The public site never imports the console (admin/): none of it may reach a visitor.',
};

/** One `no-restricted-imports` block: `files` (tests aside) may import nothing that `patterns` name. */
function restrictImports(files, patterns, ignores = ['src/**/*.test.{ts,tsx}']) {
  // A later block replaces an earlier one's patterns for the same files: the public site's blocks each keep
  // the console out.
  const all = files.some((f) => f.startsWith('src/')) ? [...patterns, neverTheConsole] : patterns;
  return { files, ignores, rules: { 'no-restricted-imports': ['error', { patterns: all }] } };
}

/** Type-aware promise rules for `files`, typed by the TypeScript project `project`: every promise awaited. */
function awaitedPromises(files, project) {
  return {
    files,
    languageOptions: { parserOptions: { project, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  };
}

const safeHtmlOnly = {
  selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
  message: 'Render rich text through the SafeHtml component only.',
};
const pageTabsOnly = {
  selector: "ImportDeclaration[source.value='antd'] ImportSpecifier[imported.name='Tabs']",
  message: "Use PageTabs (src/components/ui/page-tabs.tsx): antd's Tabs names its overflow button in English.",
};

/**
 * An antd icon names itself in English (`aria-label="plus"`), and that name joins the accessible name of the
 * button or link around it ("plus 新增"). Each icon says which it is: `aria-hidden` beside a text or a
 * labelled control (nearly always), or an `aria-label` from the texts when the icon alone carries meaning.
 */
const iconsLabelled = {
  selector:
    'JSXOpeningElement[name.name=/(Outlined|Filled|TwoTone)$/]:not(:has(JSXAttribute[name.name=/^aria-(hidden|label)$/]))',
  message:
    'An antd icon names itself in English: give it aria-hidden (beside a text or a labelled control) or an aria-label from the texts.',
};

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'coverage', 'test-results', 'tmp-shots'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'no-restricted-syntax': ['error', safeHtmlOnly, pageTabsOnly, iconsLabelled],
    },
  },
  {
    files: ['src/components/ui/page-tabs.tsx'],
    rules: { 'no-restricted-syntax': ['error', safeHtmlOnly, iconsLabelled] },
  },
  {
    // The organiser console (admin/): its own app, the same React rules.
    files: ['admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'no-restricted-syntax': ['error', safeHtmlOnly, iconsLabelled],
    },
  },
  // The console shares the contract, never the public site's code (only its message texts, src/locales);
  // the public site never imports the console, so none of it reaches a visitor's browser.
  restrictImports(
    ['admin/**/*.{ts,tsx}'],
    [
      {
        regex: '^@/|(^|/)src/(?!locales/(zh|en)/[\\w-]+\\.json$)',
        message: "The console does not import the public site's code: share it through contract/.",
      },
    ],
    [],
  ),
  restrictImports(['src/**/*.{ts,tsx}'], []),
  // Nothing but app/ imports app/.
  restrictImports([...sharedCode, 'src/features/**'], [onlyAppComposes]),
  // A feature does not import another feature (bulletproof-react's zones): shared pieces move to
  // components/, lib/ or stores/, and the app composes features.
  ...features.map((feature) =>
    restrictImports(
      [`src/features/${feature}/**`],
      [
        onlyAppComposes,
        { group: ['@/features/*', `!@/features/${feature}`], message: crossFeature },
        {
          // The same through a relative path ('../../search/…').
          group: features
            .filter((other) => other !== feature)
            .flatMap((other) => [`../**/${other}`, `../**/${other}/**`]),
          message: crossFeature,
        },
      ],
    ),
  ),
  // Shared code imports no feature.
  restrictImports(sharedCode, [
    onlyAppComposes,
    {
      group: ['@/features/*'],
      message: 'Shared code does not import features; the app passes feature pieces in (see app/site-layout.tsx).',
    },
  ]),
  {
    // Browser storage goes through src/lib/storage.ts, which survives blocked site data (spec §8).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/storage.ts', 'src/**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['localStorage', 'sessionStorage'].map((name) => ({
          name,
          message: 'Use localStore / sessionStore from @/lib/storage: they keep working when storage is blocked.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['localStorage', 'sessionStorage'].map((property) => ({
          object: 'window',
          property,
          message: 'Use localStore / sessionStore from @/lib/storage: they keep working when storage is blocked.',
        })),
        { object: 'document', property: 'cookie', message: 'Use cookies from @/lib/storage.' },
      ],
    },
  },
  // The contract (API, enums, rules, site-config schema) is what the SPA and the server share: it stands
  // alone, importing neither of them, so that both can import all of it.
  restrictImports(
    ['contract/**/*.ts'],
    [
      {
        group: ['@/*', '**/src/**', '**/server/**', '../*'],
        message: 'The contract imports only the contract (#contract/…) and packages.',
      },
    ],
    ['contract/**/*.test.ts'],
  ),
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/testing/**', 'contract/**/*.test.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.vitest } },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.{ts,mjs}', 'tests/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.vitest } },
  },
  // The server's data layer is async on both engines: a promise left un-awaited (or tested as if it were its
  // value) is a lost write or a wrong answer, so type-aware rules check every server file.
  awaitedPromises(['server/**/*.ts'], './server/tsconfig.json'),
  // The browser tests are steps on a page, a server and the CLI, each awaited: one left un-awaited runs beside
  // the next step (or after the test) instead of before it.
  awaitedPromises(['tests/**/*.ts'], './tsconfig.json'),
  {
    // The rich-text sanitiser needs a browser's DOM: on the server DOMPurify would hand its input back as it came.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^#contract|(^|/)contract)/rich-text(\\.ts)?$',
              message: 'The server never sanitises rich text: contract/rich-text.ts runs in a browser only.',
            },
          ],
        },
      ],
    },
  },
  // The server's layers (docs/architecture-layers.md): routes → services → repositories (db/) → engine;
  // cli → services like a route; plugins wire things together; lib depends on no layer above it.
  ...serverLayers(),
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);

/**
 * One block per server folder: the folders it may not import at run time (`import type` is erased and
 * allowed: a route may name a record's type), and for routes, no repository call either. The repositories
 * reach a route only as `app.repos`, handed to a service whole; a member of it (`app.repos.races`,
 * `repos.users`, a destructured `{ users } = app.repos`, `app.db.ping()`) is a repository call in a route.
 */
function serverLayers() {
  const folder = (name, message) => ({
    group: [`**/${name}/*`, `**/${name}/**`],
    message,
    allowTypeImports: true,
  });
  const layer = (files, patterns, extra = {}) => ({
    files: [`server/src/${files}/**/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }], ...extra },
  });
  const noRoutes = (who) =>
    folder('routes', `${who} do not import routes: move the shared piece to lib/ or a service.`);
  const noPlugins = (who) =>
    folder('plugins', `${who} do not import plugins: plugins wire layers together, nothing imports them.`);
  const noCli = (who) => folder('cli', `${who} do not import the CLI.`);
  const repositoryCall =
    'Routes call services, not repositories: move this into a function in services/<area>/ and hand it app.repos.';
  const repositoryCalls = (message) => [
    'error',
    {
      selector: 'MemberExpression[object.type="MemberExpression"][object.property.name=/^(repos|db)$/]',
      message,
    },
    { selector: 'MemberExpression[object.type="Identifier"][object.name=/^(repos|tx)$/]', message },
    { selector: 'VariableDeclarator[id.type="ObjectPattern"][init.property.name=/^(repos|db)$/]', message },
  ];
  return [
    layer(
      'routes',
      [folder('db', 'Routes do not import repositories (db/): call a service in services/<area>/.'), noCli('Routes')],
      { 'no-restricted-syntax': repositoryCalls(repositoryCall) },
    ),
    layer('services', [noRoutes('Services'), noPlugins('Services'), noCli('Services')]),
    layer('db', [
      noRoutes('Repositories'),
      folder('services', 'Repositories (db/) do not import services: a service calls repositories.'),
      noPlugins('Repositories'),
      noCli('Repositories'),
    ]),
    layer('lib', [
      noRoutes('lib/'),
      folder('services', 'lib/ does not import services: it is what every layer may use.'),
      noPlugins('lib/'),
      noCli('lib/'),
    ]),
    layer('cli', [noRoutes('CLI commands (they call services, like a route)'), noPlugins('CLI commands')]),
    {
      // Every command file: a command calls services, as a route does (issue 29 §2).
      files: ['server/src/cli/**/*.ts'],
      rules: {
        'no-restricted-syntax': repositoryCalls(
          'CLI commands call services, not repositories: move this into a function in services/<area>/.',
        ),
      },
    },
  ];
}
