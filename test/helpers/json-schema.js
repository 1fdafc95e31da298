// A validator for the part of JSON Schema (2020-12) that docs/results.schema.json uses: type
// (one or a list; "integer" a whole number), const, properties, required,
// additionalProperties: false, items. Anything else in a schema is refused, so the schema
// cannot start relying on a keyword this validator would silently ignore.
const KNOWN = new Set([
  '$schema', 'title', 'description', 'type', 'const', 'properties', 'required', 'additionalProperties', 'items',
]);

const isType = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  array: Array.isArray,
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

/** The problems of `value` against `schema`, each "path: what": [] when it validates. */
export function validate(schema, value, path = '$') {
  const problems = [];
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN.has(keyword)) throw new Error(`${path}: the schema uses ${keyword}, which this validator does not know`);
  }
  if (schema.type !== undefined) {
    const types = [].concat(schema.type);
    for (const type of types) if (!isType[type]) throw new Error(`${path}: unknown type ${type}`);
    if (!types.some((type) => isType[type](value))) {
      problems.push(`${path}: ${JSON.stringify(value)?.slice(0, 40)} is not ${types.join(' or ')}`);
      return problems;
    }
  }
  if ('const' in schema && JSON.stringify(value) !== JSON.stringify(schema.const)) {
    problems.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  }
  if (isType.object(value)) {
    for (const name of schema.required ?? []) if (!(name in value)) problems.push(`${path}.${name}: missing`);
    for (const [name, item] of Object.entries(value)) {
      if (schema.properties?.[name]) problems.push(...validate(schema.properties[name], item, `${path}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${name}: not allowed`);
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, index) => problems.push(...validate(schema.items, item, `${path}[${index}]`)));
  }
  return problems;
}
