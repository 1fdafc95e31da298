// The options as given, before any rule between them: each name checked against the table, each
// value read as its kind takes it, and the numbers read with the table's parse and bounds.
// normalizeOptions starts here; every problem is pushed, in the command line's words.
import { nearestName } from '../util/flags.js';
import { OPTION_NAMED, camelCase, takesNumber } from './table.js';
import { LIMITS } from './defaults.js';
import { listItems, shown } from './values.js';

// How problems name an option: by its flag, with its short form when it has one.
const labelOf = ({ flag, short }) => (short ? `-${short}/--${flag}` : `--${flag}`);
const flagLabel = (name) => labelOf(OPTION_NAMED.get(name));

function described(value) {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

// One option as its kind takes it: a boolean; a number or its text (takesNumber); text (a number
// given is written as its text: a URL or a name is text); a list's items, from comma-separated
// text or an array. Returns undefined, a problem pushed, when the value is none of these.
function optionValue(option, value, problems) {
  const { list, multiple, type } = option;
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    problems.push(`${labelOf(option)} is true or false, not ${described(value)}`);
    return undefined;
  }
  const numeric = takesNumber(option);
  const item = (one) => {
    if (typeof one === 'string') return one;
    if (typeof one !== 'number') return undefined;
    return numeric ? one : String(one);
  };
  const items = Array.isArray(value) ? value.map(item) : [item(value)];
  if (items.includes(undefined) || (Array.isArray(value) && !multiple && !list)) {
    const what = multiple || list
      ? 'a string, a number or an array of them'
      : 'a string or a number';
    problems.push(`${labelOf(option)} takes ${what}, not ${described(value)}`);
    return undefined;
  }
  if (list) return listItems(items);
  return multiple ? items : items[0];
}

/** The options given, by their camelCase names, each as optionValue reads it; unknown names are problems. */
export function givenValues(object, problems, notices) {
  const values = {};
  for (const [name, value] of Object.entries(object ?? {})) {
    if (value === undefined) continue;
    const option = OPTION_NAMED.get(name);
    if (!option) {
      const near = nearestName(name, [...OPTION_NAMED.keys()]);
      problems.push(`unknown option ${name}${near ? ` (did you mean ${near}?)` : ''}`);
      continue;
    }
    const read = optionValue(option, value, problems);
    const canonical = camelCase(option.flag);
    if (name !== canonical) {
      if (object[canonical] !== undefined) {
        problems.push(`--${option.alias} is --${option.flag}'s old name: give one of them`);
        continue;
      }
      notices?.push(`--${option.alias} is now --${option.flag}${option.aliasNote ? `: ${option.aliasNote}` : ''}`);
    }
    if (read !== undefined) values[canonical] = read;
  }
  return values;
}

// [min, max, unit]: a parsed value outside is a problem that names the bound.
const outside = (value, [min, max]) => value !== null && (value > max || value < min);
const boundText = ([min, max, unit = '']) => (value) =>
  (value > max ? `at most ${shown(max)}${unit}` : `at least ${shown(min)}${unit}`);
const boundsOf = ({ bounds: [min, max], unit }) => [min, max, unit];

/**
 * How normalizeOptions reads `values`: text(name) a string option's text; single(name) and
 * listOf(name) a number option and a list of them, as the table parses and bounds them
 * (undefined when not given; problems pushed).
 */
export function optionReaders(values, problems) {
  const text = (name) => (typeof values[name] === 'string' ? values[name] : undefined);
  const listOf = (name) => {
    const { parse, what } = OPTION_NAMED.get(name);
    const bounds = boundsOf(OPTION_NAMED.get(name));
    const items = values[name];
    if (items === undefined) return undefined;
    if (!items.length) problems.push(`${flagLabel(name)} needs at least one ${what}`);
    if (items.length > LIMITS.steps) {
      problems.push(`${flagLabel(name)} has ${items.length} values; at most ${LIMITS.steps}`);
    }
    return items.map((item) => {
      const value = parse(item);
      if (value === null) problems.push(`${flagLabel(name)}: "${item}" is not a ${what}`);
      else if (outside(value, bounds)) {
        problems.push(`${flagLabel(name)}: "${item}" is out of range: each must be ${boundText(bounds)(value)}`);
      }
      return value;
    });
  };
  const single = (name) => {
    const { parse, what } = OPTION_NAMED.get(name);
    const bounds = boundsOf(OPTION_NAMED.get(name));
    const raw = values[name];
    if (raw === undefined) return undefined;
    const value = parse(raw);
    if (value === null) problems.push(`${flagLabel(name)} must be a ${what}, not "${raw}"`);
    else if (outside(value, bounds)) {
      problems.push(`${flagLabel(name)} must be ${boundText(bounds)(value)}, not "${raw}"`);
    }
    return value ?? undefined;
  };
  return { text, listOf, single };
}
