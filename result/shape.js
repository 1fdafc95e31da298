// Copies a record field by field as fields.js describes it, checking types: a file holds exactly
// the defined fields, in order, and a reader gets nothing else.

const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

// Free-form objects may hold only what JSON keeps as it is (NaN and Infinity would come back as null).
function isJsonValue(value) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  return isRecord(value) && Object.values(value).every(isJsonValue);
}

const CHECKS = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  object: (value) => isRecord(value) && isJsonValue(value),
  'number[]': (value) => Array.isArray(value) && value.every(Number.isFinite),
  'string[]': (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  list: Array.isArray,
  record: isRecord,
};
const WANTED = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  'number[]': 'a list of numbers',
  'string[]': 'a list of strings',
  list: 'a list',
  record: 'an object',
};

const show = (value) => (value === undefined ? 'missing' : `${JSON.stringify(value)?.slice(0, 40)}`);

const trees = new WeakMap();
function treeOf(fields) {
  if (trees.has(fields)) return trees.get(fields);
  const tree = new Map();
  for (const field of fields) {
    const parts = field.path.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) {
      if (!node.has(part)) node.set(part, new Map());
      node = node.get(part);
    }
    node.set(parts.at(-1), field);
  }
  trees.set(fields, tree);
  return tree;
}

function copyValue(value, field, where, fail) {
  const [base, nullable] = field.type.split('|');
  if (value === null && nullable === 'null') return null;
  if (base === 'object' && isRecord(value) && !isJsonValue(value)) {
    fail(`${where} holds NaN, Infinity or another value JSON cannot keep`);
  }
  if (!CHECKS[base](value)) fail(`${where} is ${show(value)}, expected ${WANTED[base]}${nullable ? ' or null' : ''}`);
  if (base === 'list') return value.map((item, index) => copyRecord(item, field.of, `${where}[${index}]`, fail));
  if (base === 'record') return copyRecord(value, field.of, where, fail);
  if (base === 'object' || base.endsWith('[]')) return structuredClone(value);
  return value;
}

// A group whose every field is optional (peakRss) may be left out whole, like an optional field.
function allOptional(node) {
  return [...node.values()].every((child) => (child instanceof Map ? allOptional(child) : child.optional));
}

function copyNode(input, tree, where, fail) {
  if (!isRecord(input)) fail(`${where || 'the top level'} is ${show(input)}, expected an object`);
  const known = new Set(tree.keys());
  const unknown = Object.keys(input).find((key) => !known.has(key));
  if (unknown !== undefined) fail(`${where ? `${where}.` : ''}${unknown} is not a field of this format`);
  const output = {};
  for (const [key, node] of tree) {
    const at = where ? `${where}.${key}` : key;
    if (input[key] === undefined && (node instanceof Map ? allOptional(node) : node.optional)) continue;
    output[key] = node instanceof Map ? copyNode(input[key], node, at, fail) : copyValue(input[key], node, at, fail);
  }
  return output;
}

/** A copy of `record` holding exactly `fields`; `fail(problem)` must throw. */
export function copyRecord(record, fields, where, fail) {
  return copyNode(record, treeOf(fields), where, fail);
}

export const valueAt = (record, path) => path.split('.').reduce((value, key) => value?.[key], record);
