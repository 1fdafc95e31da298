// `import { a } from './x.js'` where x.js exports no `a`: a name moved to another module without
// its importers (node fails only when the importer is loaded).
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';

// A module's exported names, read from its text (export function/const/class, export { ... });
// null when it re-exports with `export *`, whose names this does not follow. A CommonJS module's
// are its module.exports (the default) and the keys of the object literal assigned to it, which is
// what Node offers an importer by name.
async function exportedNames(file) {
  const text = await readFile(file, 'utf8');
  if (/export\s*\*\s*from/.test(text)) return null;
  const names = new Set();
  if (/\bmodule\.exports\s*=/.test(text)) names.add('default');
  for (const [, list] of text.matchAll(/\bmodule\.exports\s*=\s*\{([^}]*)\}/g)) {
    const keys = list.split(',').map((entry) => entry.split(':')[0].trim()).filter(Boolean);
    for (const key of keys) names.add(key);
  }
  for (const [, name] of text.matchAll(/export\s+(?:async\s+)?(?:function\s*\*?|const|let|var|class)\s*([A-Za-z_$][\w$]*)/g)) names.add(name);
  for (const [, list] of text.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of list.split(',').map((entry) => entry.trim()).filter(Boolean)) names.add(part.split(/\s+as\s+/).at(-1).trim());
  }
  if (/export\s+default/.test(text)) names.add('default');
  return names;
}

export async function missingNames(files, root) {
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
