// Builds the launcher and the operator's commands into JavaScript that production runs with plain Node, in
// dist/launcher/ at the checkout's root, with source maps (run with --enable-source-maps):
//   main.js server|gateway                    npm run start:server, npm run start:gateway (npm start)
//   admin.js, inventory-import.js, db-dump.js npm run admin, inventory:import, db:export, db:import
// Code they share is in chunks beside them.
//
//   node apps/launcher/build.mjs              (npm run build -w apps/launcher, part of npm run build)
//   node apps/launcher/build.mjs --if-stale   builds only when a source file is newer than the build (the suites
//                                             that start the bundle run this first)
//
// The workspace's own TypeScript (@proxy/*) is bundled. Every package from node_modules stays outside and is imported
// from there at run time, as from the sources: native and WebAssembly packages (argon2, PGlite) and the packages that
// read their own files (the IP data, country names) work unchanged.
//
// Files the code finds by path at run time (the SQL migrations, the shipped terms, the console's and the plugin's
// builds) stay where they are in the checkout: each bundled module keeps its own import.meta.url (rewritten to the
// module's source file, relative to the bundle), so `new URL('../migrations', import.meta.url)` and
// `createRequire(import.meta.url)` name the same file from the bundle as from the sources.
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const outdir = path.join(root, 'dist/launcher');
/** What the build read, relative to the root: --if-stale compares their times with the build's. */
const INPUTS_FILE = 'build-inputs.json';

/** The folder Node's resolution finds package `name` in, looking up from `dir` (null when none). */
function packageDirFrom(dir, name) {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(at) === at) return null;
  }
}

/** "@scope/name/sub/path" -> "@scope/name", "name/sub" -> "name". */
function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Leaves node_modules outside the bundle. The bundle imports a package from dist/launcher, its source file from its
 * own folder: both must find the same copy, or the bundle would run another version than the sources (one installed
 * under a workspace's own node_modules because two versions are wanted). The build stops if they differ.
 */
const packagesOutside = {
  name: 'packages-outside',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.path.startsWith('@proxy/')) return undefined;
      const name = packageNameOf(args.path);
      const fromSource = packageDirFrom(args.resolveDir, name);
      const fromBundle = packageDirFrom(outdir, name);
      if (fromSource !== fromBundle) {
        const importer = path.relative(root, args.importer);
        return {
          errors: [
            {
              text: `${name} is ${fromSource ?? 'missing'} for ${importer} but ${fromBundle ?? 'missing'} for the bundle: keep one version of it, in the root node_modules`,
            },
          ],
        };
      }
      return { path: args.path, external: true };
    });
  },
};

/**
 * Each module's import.meta.url as its source file's URL, found from the URL of the output file it lands in. Every
 * output file (entries and chunks) is directly in outdir, so one relative path serves wherever the module lands.
 */
const sourceLocations = {
  name: 'source-locations',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      const loader = path.extname(args.path).slice(1).replace(/^[cm]/, '');
      if (/import\.meta\.(dirname|filename)/.test(text)) {
        return { errors: [{ text: 'use import.meta.url: the build keeps only that one per module' }], loader };
      }
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`),
        loader,
      };
    });
  },
};

/** Why the build in outdir is out of date, or null when every file it was made from is older than it. */
function staleness() {
  const built = path.join(outdir, 'main.js');
  if (!existsSync(built) || !existsSync(path.join(outdir, INPUTS_FILE))) return 'not built';
  const builtAt = statSync(built).mtimeMs;
  const inputs = JSON.parse(readFileSync(path.join(outdir, INPUTS_FILE), 'utf8'));
  for (const input of [...inputs, path.relative(root, fileURLToPath(import.meta.url))]) {
    const file = path.join(root, input);
    if (!existsSync(file)) return `${input} is gone`;
    if (statSync(file).mtimeMs > builtAt) return `${input} changed`;
  }
  return null;
}

if (process.argv.includes('--if-stale')) {
  const reason = staleness();
  if (!reason) process.exit(0);
  console.log(`building the launcher (${reason})`);
}

// Built beside, then swapped in: a process starting meanwhile (a gateway's new worker) finds the old build or the new
// one, never half of one. Same depth as outdir, so the relative paths above hold.
const staging = `${outdir}.building-${process.pid}`;
const old = `${outdir}.old-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
try {
  const result = await build({
    entryPoints: {
      main: path.join(here, 'src/main.ts'),
      admin: path.join(root, 'apps/server/src/features/users/admin-cli.ts'),
      'inventory-import': path.join(root, 'apps/server/src/features/inventory/import-cli.ts'),
      'db-dump': path.join(root, 'apps/server/src/features/system/db-dump-cli.ts'),
    },
    outdir: staging,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    // package.json's engines.
    target: 'node20.19',
    sourcemap: 'linked',
    plugins: [packagesOutside, sourceLocations],
    metafile: true,
    absWorkingDir: root,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/'));
  writeFileSync(path.join(staging, INPUTS_FILE), `${JSON.stringify(inputs.sort(), null, 1)}\n`);
  if (existsSync(outdir)) renameSync(outdir, old);
  renameSync(staging, outdir);
} finally {
  rmSync(staging, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
}
