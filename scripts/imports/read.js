// What a source file's text says it imports or starts, read without parsing JavaScript: the
// static imports and re-exports, import() and require() calls, the calls whose specifier is
// computed, and the modules it starts by a `new URL('./x.js', import.meta.url)` (a Worker, a
// fork, a spawn).

// Comments go first so an import shown in a comment draws no arrow; strings stay (they are the
// specifiers). A `//` inside a string or a URL survives only if it follows a quote character.
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const STATIC = /\b(?:import|export)\s+[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/g;
const SIDE_EFFECT = /\bimport\s*(['"])([^'"]+)\1/g;
const CALL = /\b(import|require)\(\s*/g;
// A module file named relative to the one that names it; a read of its text (readFile) starts nothing.
const MODULE_URL = /\bnew\s+URL\(\s*(['"`])(\.{1,2}\/[^'"`$]+\.[cm]?js)\1\s*,\s*import\.meta\.url\s*\)/g;
const READ_BEFORE = /\breadFile(?:Sync)?\(\s*$/;

// A statement starts its line: an `import ... from '...'` inside a string (a test's script) does not.
const startsLine = (code, index) => /(^|\n)[ \t]*$/.test(code.slice(Math.max(0, index - 200), index));

// The call's argument when it is one string literal (a template without ${}), else null. A
// script held in a string writes its quotes escaped (`require(\'fs\')`).
function literalArgument(code, start) {
  const escaped = code[start] === '\\';
  const quote = code.slice(start, start + (escaped ? 2 : 1));
  if (!['\'', '"', '`'].includes(quote.at(-1))) return null;
  const end = code.indexOf(quote, start + quote.length);
  if (end < 0) return null;
  const specifier = code.slice(start + quote.length, end);
  if (quote === '`' && specifier.includes('${')) return null;
  if (/[\n\\]/.test(specifier)) return null;
  return /^\s*[),]/.test(code.slice(end + quote.length)) ? specifier : null;
}

/**
 * { found, computed, launches } for text: found is { specifier, dynamic, statement } for each
 * import (statement: a static import that starts its line), computed the import() and require()
 * calls whose specifier is not one literal, launches the module files it names by URL.
 */
export function importsOf(text) {
  const code = stripComments(text);
  const found = [];
  for (const pattern of [STATIC, SIDE_EFFECT]) {
    for (const match of code.matchAll(pattern)) {
      found.push({ specifier: match[2], dynamic: false, statement: startsLine(code, match.index) });
    }
  }
  const computed = [];
  for (const match of code.matchAll(CALL)) {
    const start = match.index + match[0].length;
    if (code[start] === ')') continue; // `import()` named in a sentence, not called
    const specifier = literalArgument(code, start);
    if (specifier !== null) found.push({ specifier, dynamic: true, statement: false });
    else computed.push(code.slice(start).split('\n')[0].trim());
  }
  const launches = [];
  for (const match of code.matchAll(MODULE_URL)) {
    if (!READ_BEFORE.test(code.slice(Math.max(0, match.index - 40), match.index))) launches.push(match[2]);
  }
  return { found, computed, launches };
}
