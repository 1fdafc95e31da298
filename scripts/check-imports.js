#!/usr/bin/env node
// npm run lint, after eslint and tsc: the import graph of every .js/.cjs/.mjs file in the
// repository, checked against the layout (scripts/imports/layout.js). Arrows are static imports,
// re-exports, import() and require(), and the module files started by URL (a Worker, a fork, a
// spawn: `new URL('./worker.js', import.meta.url)`). Rules:
//   - every top-level folder and root file has a rule, and imports none of the names it forbids;
//   - no cycles, counting dynamic imports and the modules started;
//   - no import() or require() of a computed, concatenated or template-string specifier: a reader
//     (and this check) must see every arrow, so a table of static imports replaces it;
//   - no import of the package by its own name (`storebench`, `storebench/app`) from inside it;
//   - every relative import names a file that exists, and every name imported from it is one
//     it exports (a moved module or name takes its importers along).
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain } from '../util/is-main.js';
import { COMPUTED_ALLOWED, FORBIDDEN, LAUNCHES_ALLOWED, SELF_IMPORT_ALLOWED } from './imports/layout.js';
import { importsOf } from './imports/read.js';
import { findCycles } from './imports/cycles.js';
import { missingNames } from './imports/names.js';

export { FORBIDDEN, findCycles, importsOf };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', '.git', 'coverage']);

async function sourceFiles(dir) {
  const files = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...await sourceFiles(path));
    else if (/\.(c|m)?js$/.test(entry.name)) files.push(path);
  }
  return files;
}

// A folder is named with its slash, a root file (index.js) as it is.
const label = (top) => (/\.[cm]?js$/.test(top) ? top : `${top}/`);

const packageName = (root) => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;

/**
 * The graph of relative imports between repository files, and every problem the rules find.
 * `forbidden` and the allowances default to the layout's; a test passes its own.
 */
export async function checkImports(root = ROOT, {
  forbidden = FORBIDDEN,
  computedAllowed = COMPUTED_ALLOWED,
  launchesAllowed = LAUNCHES_ALLOWED,
  selfImportAllowed = SELF_IMPORT_ALLOWED,
} = {}) {
  const files = await sourceFiles(root);
  const known = new Set(files);
  const name = (file) => relative(root, file);
  const topOf = (file) => name(file).split(sep)[0];
  const self = packageName(root);
  const graph = new Map();
  const problems = [];
  const unruled = new Set();
  const computedSeen = new Set();
  for (const file of files) {
    const from = topOf(file);
    if (!forbidden[from]) unruled.add(from);
    const { found, computed, launches } = importsOf(await readFile(file, 'utf8'));

    const allowance = computedAllowed[name(file)];
    for (const expression of computed) {
      if (allowance?.expression?.test(expression)) computedSeen.add(name(file));
      else problems.push(`${name(file)}: a computed import (${expression}); import each module statically`);
    }

    if (!selfImportAllowed.includes(from)) {
      for (const { specifier, dynamic, statement } of found) {
        if ((dynamic || statement) && (specifier === self || specifier.startsWith(`${self}/`))) {
          problems.push(`${name(file)}: imports the package by its own name ('${specifier}'); ` +
            'import the file by its relative path');
        }
      }
    }

    const imported = found.filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier }) => resolve(dirname(file), specifier));
    for (const folder of allowance?.loads ?? []) {
      for (const loaded of files) if (name(loaded).startsWith(`${folder}${sep}`)) imported.push(loaded);
    }
    const started = launches.map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => !name(target).split(sep).includes('node_modules'));
    const allowedLaunch = (target) => launchesAllowed[`${name(file)} -> ${name(target)}`];
    graph.set(file, [...imported, ...started.filter((target) => !allowedLaunch(target))]);

    // A relative import of a file that is not there (a module moved without its importers). The
    // tests' imports are left out (they hold import statements in strings, for the CLIs and this
    // check), not the files they start.
    const mustExist = from === 'test' ? started : [...imported, ...started];
    for (const target of mustExist) {
      if (!known.has(target) && !existsSync(target)) problems.push(`${name(file)} -> ${name(target)}: no such file`);
    }
    for (const target of [...imported, ...started.filter((launch) => !allowedLaunch(launch))]) {
      const to = topOf(target);
      if (forbidden[from]?.includes(to)) {
        problems.push(`${name(file)} -> ${name(target)}: ${label(from)} must not import ${to}`);
      }
    }
  }
  for (const top of unruled) {
    problems.push(`${top}: no rule says what it may import; add it to scripts/imports/layout.js`);
  }
  problems.push(...staleAllowances(root, files, { computedAllowed, launchesAllowed, computedSeen }));
  for (const cycle of findCycles(graph)) {
    problems.push(`cycle: ${cycle.map((file) => name(file)).join(' -> ')}`);
  }
  problems.push(...await missingNames(files, root));
  return { files, graph, problems };
}

// An allowance whose file moved or no longer needs it would let the next computed import or
// launch through unseen: each must still be used, and a folder loaded must hold files.
function staleAllowances(root, files, { computedAllowed, launchesAllowed, computedSeen }) {
  const problems = [];
  const names = new Set(files.map((file) => relative(root, file)));
  for (const [file, { loads = [] }] of Object.entries(computedAllowed)) {
    if (!computedSeen.has(file)) {
      problems.push(`${file}: allowed a computed import it no longer holds (COMPUTED_ALLOWED)`);
    }
    for (const folder of loads) {
      if (![...names].some((each) => each.startsWith(`${folder}${sep}`))) {
        problems.push(`${file}: loads ${folder}/, which holds no module (COMPUTED_ALLOWED)`);
      }
    }
  }
  for (const arrow of Object.keys(launchesAllowed)) {
    const [from, to] = arrow.split(' -> ');
    const { launches } = names.has(from) ? importsOf(readFileSync(join(root, from), 'utf8')) : { launches: [] };
    if (!launches.some((specifier) => relative(root, resolve(dirname(join(root, from)), specifier)) === to)) {
      problems.push(`${arrow}: allowed a launch that is no longer made (LAUNCHES_ALLOWED)`);
    }
  }
  return problems;
}

if (isMain(import.meta.url)) {
  const { files, problems } = await checkImports();
  for (const problem of problems) console.error(`check-imports: ${problem}`);
  if (problems.length) process.exit(1);
  console.log(`check-imports: ${files.length} files, no cycles, every arrow points down`);
}
