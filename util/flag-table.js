// A command's flags as one table, as options/table.js is node test's: each entry a flag, the value it
// takes (`arg`, none for a switch), its short form, whether it repeats, and its help. The parseArgs
// spec and the usage lines are both made from it, so a flag cannot be parsed and not shown, or shown
// and not parsed. (app.js's flags come from config/settings.js the same way.)

/**
 * @typedef {object} FlagEntry
 * @property {string} flag       the long flag, without `--`
 * @property {string} [arg]      the value's name (`N`, `FILE`); none: a switch
 * @property {string} [short]    its one-letter form
 * @property {boolean} [multiple] given more than once, each kept
 * @property {string} help       one line for the usage
 */

/** node:util parseArgs's spec of the table's flags. */
export function flagSpec(table) {
  return Object.fromEntries(table.map(({ flag, arg, short, multiple }) => [flag, {
    type: arg ? 'string' : 'boolean', ...(short ? { short } : {}), ...(multiple ? { multiple } : {}),
  }]));
}

/** The flags as the name of each that takes a value: Map flag -> true (a value) or false (a switch). */
export const takesValues = (table) => new Map(table.map(({ flag, arg }) => [flag, Boolean(arg)]));

// text folded into lines of at most `width`, the first after `first`, the rest under it at `indent`.
function fold(first, text, width, indent) {
  const lines = [];
  let line = first;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > width && line.trim().length) {
      lines.push(line.trimEnd());
      line = ' '.repeat(indent);
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

/** The usage's lines: `  --rounds N      help`, the help in a column at `column`, within `width`. */
export function flagLines(table, { column = 18, width = 100 } = {}) {
  return table.map(({ flag, arg, short, help }) => {
    const label = `  ${short ? `-${short}, ` : ''}--${flag}${arg ? ` ${arg}` : ''}`;
    if (label.length + 1 > column) return `${label}\n${fold(' '.repeat(column), help, width, column)}`;
    return fold(label.padEnd(column), help, width, column);
  }).join('\n');
}
