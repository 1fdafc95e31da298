#!/usr/bin/env node
// npm run lint, after eslint and tsc: the import graph of every .js/.cjs/.mjs file in the
// repository (static imports, re-exports, import() and require()), checked against the layout.
//
// Rules (README "Layout"; arrows point down, never up):
//   entry points (app.js, test.js, test-json.js, index.js) -> cli/ -> options/ -> driver/, report/
//     -> result/ -> stores/, config/, embedded/ -> util/
//   - no cycles, counting dynamic imports;
//   - no import() of a computed or template-string specifier: a reader (and this check) must see
//     every arrow, so a table of static imports replaces it;
//   - each folder below imports none of the folders named after it (FORBIDDEN);
//   - every relative import names a file that exists, and every name imported from it is one
//     it exports (a moved module or name takes its importers along).
// tests, bench/, scripts/, examples/ and data/ sit above everything and may import anything.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain } from '../util/is-main.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', '.git', 'coverage']);

const LIBRARY = [
  'cli', 'options', 'driver', 'report', 'result', 'scenarios', 'app', 'routes', 'stores', 'config', 'embedded',
];
const ENTRIES = ['cli', 'app.js', 'test.js', 'test-json.js', 'index.js'];
/** folder -> the top-level folders (or entry files) it must not import. */
export const FORBIDDEN = {
  cli: ['app.js', 'test.js', 'test-json.js'],
  // The run's options, above the driver: they read its constants (workloads, engines, limits).
  options: ['cli', 'studies', ...ENTRIES.slice(1)],
  // 'options' joins this list once driver/scenarios/ (which calls normalizeOptions) has moved up.
  driver: ['cli', 'report', ...ENTRIES.slice(1)],
  report: ['options', 'driver', 'cli', 'scenarios', ...ENTRIES.slice(1)],
  result: ['options', 'driver', 'report', 'cli', 'scenarios', 'app', 'routes', ...ENTRIES.slice(1)],
  scenarios: ['cli', 'options', 'report', ...ENTRIES.slice(1)],
  app: ['cli', 'options', 'driver', 'report', 'result', 'scenarios', ...ENTRIES.slice(1)],
  routes: ['cli', 'options', 'driver', 'report', 'result', 'scenarios', ...ENTRIES.slice(1)],
  stores: ['cli', 'options', 'driver', 'report', 'result', 'scenarios', 'app', 'routes', ...ENTRIES.slice(1)],
  // Settings and their precedence, data only: what starts servers (embedded/resolve-service.js
  // among it) sits in embedded/, which reads config/.
  config: [
    'cli', 'options', 'driver', 'report', 'result', 'scenarios', 'app', 'routes', 'embedded', ...ENTRIES.slice(1),
  ],
  embedded: ['cli', 'options', 'driver', 'report', 'result', 'scenarios', 'app', 'routes', ...ENTRIES.slice(1)],
  util: [...LIBRARY, ...ENTRIES.slice(1)],
};

// The computed imports that stay, and why; `loads` names the folder whose files such an import
// may load, so their arrows still count.
const COMPUTED_ALLOWED = {
  // The published studies are data files, one per scenario: a new one needs no code change.
  [join('driver', 'scenarios', 'index.js')]: { loads: ['scenarios'] },
  // Imports a copy of the app made outside the repository, with a different client installed.
  [join('test', 'stores', 'cloudant-legacy.test.js')]: {},
};

async function sourceFiles(dir = ROOT) {
  const files = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...await sourceFiles(path));
    else if (/\.(c|m)?js$/.test(entry.name)) files.push(path);
  }
  return files;
}

// Comments go first so an import shown in a comment draws no arrow; strings stay (they are the
// specifiers). A `//` inside a string or a URL survives only if it follows a quote character.
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const PATTERNS = [
  /\b(?:import|export)\s+[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/g,
  /\bimport\s*(['"])([^'"]+)\1/g,
  /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g,
  /\brequire\(\s*(['"])([^'"]+)\1\s*\)/g,
];

/** { specifier, dynamic } for each import in text, and the import() calls whose target is computed. */
export function importsOf(text) {
  const code = stripComments(text);
  const found = [];
  for (const [index, pattern] of PATTERNS.entries()) {
    for (const match of code.matchAll(pattern)) found.push({ specifier: match[2], dynamic: index >= 2 });
  }
  const computed = [];
  for (const match of code.matchAll(/\bimport\(\s*([^)'"\s].*)$/gm)) computed.push(match[1].trim());
  return { found, computed };
}

const topOf = (file) => relative(ROOT, file).split(sep)[0];

/** The graph of relative imports between repository files, and every problem the rules find. */
export async function checkImports(root = ROOT) {
  const files = await sourceFiles(root);
  const known = new Set(files);
  const graph = new Map();
  const problems = [];
  for (const file of files) {
    const name = relative(root, file);
    const { found, computed } = importsOf(await readFile(file, 'utf8'));
    for (const expression of computed) {
      if (!COMPUTED_ALLOWED[name]) {
        problems.push(`${name}: a computed import (${expression}); import each module statically`);
      }
    }
    const targets = found.filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier }) => resolve(dirname(file), specifier));
    for (const folder of COMPUTED_ALLOWED[name]?.loads ?? []) {
      for (const loaded of files) if (relative(root, loaded).startsWith(`${folder}/`)) targets.push(loaded);
    }
    graph.set(file, targets);
    // A relative import of a file that is not there (a module moved without its importers). The
    // tests are left out: they hold import statements in strings, for the CLIs and this check.
    if (topOf(file) !== 'test') {
      for (const target of targets) {
        if (!known.has(target) && !existsSync(target)) {
          problems.push(`${name} -> ${relative(root, target)}: no such file`);
        }
      }
    }
    const from = topOf(file);
    for (const target of targets) {
      const to = topOf(target);
      if (FORBIDDEN[from]?.includes(to)) {
        problems.push(`${name} -> ${relative(root, target)}: ${from}/ must not import ${to}`);
      }
    }
  }
  for (const cycle of findCycles(graph)) {
    problems.push(`cycle: ${cycle.map((file) => relative(root, file)).join(' -> ')}`);
  }
  problems.push(...await missingNames(files, root));
  return { files, graph, problems };
}

// A module's exported names, read from its text (export function/const/class, export { ... });
// null when it re-exports with `export *`, whose names this does not follow.
async function exportedNames(file) {
  const text = await readFile(file, 'utf8');
  if (/export\s*\*\s*from/.test(text)) return null;
  const names = new Set();
  for (const [, name] of text.matchAll(/export\s+(?:async\s+)?(?:function\s*\*?|const|let|var|class)\s*([A-Za-z_$][\w$]*)/g)) names.add(name);
  for (const [, list] of text.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of list.split(',').map((entry) => entry.trim()).filter(Boolean)) names.add(part.split(/\s+as\s+/).at(-1).trim());
  }
  if (/export\s+default/.test(text)) names.add('default');
  return names;
}

// `import { a } from './x.js'` where x.js exports no `a`: a name moved to another module
// without its importers (node fails only when the importer is loaded).
async function missingNames(files, root) {
  const known = new Set(files);
  const cache = new Map();
  const problems = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const [, list, specifier] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), specifier);
      if (!known.has(target)) continue;
      if (!cache.has(target)) cache.set(target, await exportedNames(target));
      const names = cache.get(target);
      if (!names) continue;
      for (const name of list.split(',').map((entry) => entry.trim().split(/\s+as\s+/)[0].trim()).filter(Boolean)) {
        if (!names.has(name)) {
          problems.push(`${relative(root, file)}: imports ${name} from ${specifier}, which does not export it`);
        }
      }
    }
  }
  return problems;
}

/** One cycle per strongly connected group, as a path that returns to its start. */
export function findCycles(graph) {
  const state = new Map();
  const stack = [];
  const cycles = [];
  const visit = (node) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

if (isMain(import.meta.url)) {
  const { files, problems } = await checkImports();
  for (const problem of problems) console.error(`check-imports: ${problem}`);
  if (problems.length) process.exit(1);
  console.log(`check-imports: ${files.length} files, no cycles, every arrow points down`);
}
