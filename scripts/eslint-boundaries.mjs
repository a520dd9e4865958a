// The layout's import rules (ARCHITECTURE.md, "Boundaries"), enforced by lint:
// - no app imports another app (apps/launcher, the composition root, may import
//   the server and the gateway packages); nothing reaches into an apps/* folder
//   by a relative path from outside it;
// - in the console, a feature does not import another feature, and the shared
//   layers (src/lib, src/components, src/entities) import no feature;
// - Drizzle (drizzle-orm) only in repositories, the db package and tests.
import path from 'node:path';

const ROOT = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const APPS = new Set(['server', 'gateway', 'web', 'launcher', 'browser-plugin']);
const MAY_IMPORT = { launcher: new Set(['server', 'gateway']) };

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

/** @type {import('eslint').Rule.RuleModule} */
const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'import boundaries between apps, console features and the data layer' },
    schema: [],
    messages: {
      appToApp:
        "{{from}} may not import apps/{{to}}: share code through packages/* or the app's package exports (only apps/launcher composes the server and the gateway).",
      featureToFeature: 'Console feature "{{from}}" may not import feature "{{to}}": move what both need to src/entities, src/components or src/lib.',
      sharedToFeature: 'Shared console code ({{layer}}) may not import a feature ("{{to}}").',
      drizzleOutsideRepository: "Drizzle belongs in *.repository.ts files (and packages/db, tests): put the query in the feature's repository.",
    },
  },
  create(context) {
    const file = relative(context.filename);
    const ownApp = appOf(file);
    const ownFeature = featureOf(file);
    const sharedLayer = /^apps\/web\/src\/(lib|components|entities)\//.exec(file)?.[1];

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
        context.report({ node, messageId: 'appToApp', data: { from: ownApp ? `apps/${ownApp}` : file, to: targetApp } });
        return;
      }
      const targetFeature = featureOf(`${target}/`) ?? featureOf(target);
      if (ownFeature && targetFeature && targetFeature !== ownFeature) {
        context.report({ node, messageId: 'featureToFeature', data: { from: ownFeature, to: targetFeature } });
      } else if (sharedLayer && targetFeature) {
        context.report({ node, messageId: 'sharedToFeature', data: { layer: `src/${sharedLayer}`, to: targetFeature } });
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
