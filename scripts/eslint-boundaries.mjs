// The layout's import rules (ARCHITECTURE.md, "Boundaries"), enforced by lint:
// - no app imports another app (apps/launcher, the composition root, may import
//   the server and the gateway packages); nothing reaches into an apps/* folder
//   by a relative path from outside it;
// - in the console, a feature does not import another feature, and the shared
//   layers (src/lib, src/components, src/entities) import no feature;
// - in the API, a feature imports only features of a lower level of
//   SERVER_FEATURE_LEVELS (tests and *-test-kit.ts files may import any);
// - Drizzle (drizzle-orm) only in repositories, the db package and tests.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const APPS = new Set(['server', 'gateway', 'web', 'launcher', 'browser-plugin']);
const MAY_IMPORT = { launcher: new Set(['server', 'gateway']) };

// The API's features (apps/server/src/features/<feature>), lowest level first. A feature's
// non-test files import only features of a strictly lower level; a new feature is placed here.
const SERVER_FEATURE_LEVELS = [
  // import no feature (economics reads the pools', exits' and tokens' tables through its own repository)
  [
    'accounts',
    'audit',
    'downloads',
    'economics',
    'gateway',
    'ip-quality',
    'ledger',
    'mail',
    'overview',
    'pricing',
    'site',
  ],
  // notifications check the account; the inventory and a customer's IP lists and target rules change the gateway's state
  ['inventory', 'ip-lists', 'notifications', 'target-rules'],
  // sign-in (trial credit, mail, notifications), areas of the inventory, rebates, webhooks (a failing endpoint is
  // notified), upstream pools (the inventory's area slugs and its probe's echo, the gateway's state, IP data)
  ['areas', 'auth', 'invite', 'pools', 'webhooks'],
  // money in (rebates, webhooks), tokens (areas, exits, prices, ledger), system settings (auth's two-factor)
  ['payments', 'proxies', 'system'],
  // built on tokens, payments or sign-in
  ['alerts', 'endpoint-generator', 'plugin', 'proxy-test', 'supply', 'usage', 'usage-log', 'users'],
  // the customer API (the endpoint generator's lines), work orders (about tokens and supply requests)
  ['customer-api', 'work-orders'],
];
const SERVER_FEATURE_LEVEL = new Map(
  SERVER_FEATURE_LEVELS.flatMap((features, level) => features.map((feature) => [feature, level])),
);

function relative(file) {
  return path.relative(ROOT, file).split(path.sep).join('/');
}

function appOf(rel) {
  const m = /^apps\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

function featureOf(rel) {
  const m = /^apps\/web\/src\/features\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

function isTestFile(rel) {
  return /\.test\.tsx?$/.test(rel) || /(^|\/)test\//.test(rel);
}

function serverFeatureOf(rel) {
  const m = /^apps\/server\/src\/features\/([^/]+)\//.exec(rel);
  return m ? m[1] : undefined;
}

const serverFeatureFolders = new Map();

// The feature an import reaches: a folder of apps/server/src/features (index.ts and startup.ts there compose the features).
function serverFeatureReached(target) {
  const feature = serverFeatureOf(`${target}/`);
  if (feature === undefined) return undefined;
  if (!serverFeatureFolders.has(feature)) {
    const stat = fs.statSync(path.join(ROOT, 'apps/server/src/features', feature), { throwIfNoEntry: false });
    serverFeatureFolders.set(feature, Boolean(stat?.isDirectory()));
  }
  return serverFeatureFolders.get(feature) ? feature : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'import boundaries between apps, console features, server features and the data layer' },
    schema: [],
    messages: {
      appToApp:
        "{{from}} may not import apps/{{to}}: share code through packages/* or the app's package exports (only apps/launcher composes the server and the gateway).",
      featureToFeature:
        'Console feature "{{from}}" may not import feature "{{to}}": move what both need to src/entities, src/components or src/lib.',
      sharedToFeature: 'Shared console code ({{layer}}) may not import a feature ("{{to}}").',
      serverFeatureUpward:
        'Server feature "{{from}}" (level {{fromLevel}}) may not import feature "{{to}}" (level {{toLevel}}): features import only lower levels (SERVER_FEATURE_LEVELS in scripts/eslint-boundaries.mjs). Move the code to the lower feature it is about, or the caller up.',
      serverFeatureUnplaced:
        'Server feature "{{feature}}" has no level: add it to SERVER_FEATURE_LEVELS in scripts/eslint-boundaries.mjs.',
      drizzleOutsideRepository:
        "Drizzle belongs in *.repository.ts files (and packages/db, tests): put the query in the feature's repository.",
    },
  },
  create(context) {
    const file = relative(context.filename);
    const ownApp = appOf(file);
    const ownFeature = featureOf(file);
    const sharedLayer = /^apps\/web\/src\/(lib|components|entities)\//.exec(file)?.[1];
    const ownServerFeature = isTestFile(file) || /-test-kit\.ts$/.test(file) ? undefined : serverFeatureOf(file);

    function check(node, source) {
      if (typeof source !== 'string') return;
      if (source === 'drizzle-orm' || source.startsWith('drizzle-orm/')) {
        if (ownApp && !file.endsWith('.repository.ts') && !isTestFile(file)) {
          context.report({ node, messageId: 'drizzleOutsideRepository' });
        }
        return;
      }
      const pkg = /^@proxy\/([^/]+)/.exec(source)?.[1];
      if (pkg && APPS.has(pkg) && ownApp && pkg !== ownApp && !MAY_IMPORT[ownApp]?.has(pkg)) {
        context.report({ node, messageId: 'appToApp', data: { from: `apps/${ownApp}`, to: pkg } });
        return;
      }
      if (!source.startsWith('.')) return;
      const target = relative(path.resolve(path.dirname(context.filename), source));
      const targetApp = appOf(target);
      if (targetApp && targetApp !== ownApp) {
        context.report({
          node,
          messageId: 'appToApp',
          data: { from: ownApp ? `apps/${ownApp}` : file, to: targetApp },
        });
        return;
      }
      const targetServerFeature = serverFeatureReached(target);
      if (ownServerFeature && targetServerFeature && targetServerFeature !== ownServerFeature) {
        const [fromLevel, toLevel] = [
          SERVER_FEATURE_LEVEL.get(ownServerFeature),
          SERVER_FEATURE_LEVEL.get(targetServerFeature),
        ];
        if (fromLevel === undefined || toLevel === undefined) {
          context.report({
            node,
            messageId: 'serverFeatureUnplaced',
            data: { feature: fromLevel === undefined ? ownServerFeature : targetServerFeature },
          });
        } else if (toLevel >= fromLevel) {
          context.report({
            node,
            messageId: 'serverFeatureUpward',
            data: { from: ownServerFeature, fromLevel, to: targetServerFeature, toLevel },
          });
        }
        return;
      }
      const targetFeature = featureOf(`${target}/`) ?? featureOf(target);
      if (ownFeature && targetFeature && targetFeature !== ownFeature) {
        context.report({ node, messageId: 'featureToFeature', data: { from: ownFeature, to: targetFeature } });
      } else if (sharedLayer && targetFeature) {
        context.report({
          node,
          messageId: 'sharedToFeature',
          data: { layer: `src/${sharedLayer}`, to: targetFeature },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { boundaries } };
