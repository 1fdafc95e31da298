// docs/results.schema.json: the results format as a JSON Schema (draft 2020-12), generated from
// the one field definition (fields.js), as docs/results-format.md is. Every field required, no
// other field allowed, null only where the field says so: what fromJson enforces, for readers
// in other languages. `node result/schema.js` rewrites the file; a unit test fails when it is stale.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isMain } from '../util/is-main.js';
import { RESULT_FIELDS, RESULTS_FORMAT } from './fields.js';

export const SCHEMA_PATH = fileURLToPath(new URL('../docs/results.schema.json', import.meta.url));
const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const SCALARS = { string: 'string', integer: 'integer', number: 'number', boolean: 'boolean', object: 'object' };

function typeSchema(field) {
  const [base, nullable] = field.type.split('|');
  const withNull = (type) => (nullable === 'null' ? [type, 'null'] : type);
  if (SCALARS[base]) return { type: withNull(SCALARS[base]) };
  if (base === 'number[]' || base === 'string[]') {
    return { type: withNull('array'), items: { type: base.slice(0, -2) } };
  }
  if (base === 'list') return { type: withNull('array'), items: recordSchema(field.of) };
  if (base === 'record') return { ...recordSchema(field.of), type: withNull('object') };
  throw new TypeError(`no schema for type ${field.type} (${field.path})`);
}

/** The schema of a record holding exactly `fields` (dotted paths become nested objects). */
function recordSchema(fields) {
  const root = { type: 'object', properties: {}, required: [], additionalProperties: false };
  for (const field of fields) {
    const parts = field.path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      node.properties[part] ??= { type: 'object', properties: {}, required: [], additionalProperties: false };
      // A group is required when one of its fields is (a group of optional fields may be left out whole).
      if (!field.optional && !node.required.includes(part)) node.required.push(part);
      node = node.properties[part];
    }
    const name = parts.at(-1);
    node.properties[name] = { description: field.description, ...typeSchema(field) };
    if (!field.optional) node.required.push(name);
  }
  return root;
}

/** The schema of a Result of this format. */
export function resultsSchema() {
  const schema = recordSchema(RESULT_FIELDS);
  schema.properties.format = { ...schema.properties.format, const: RESULTS_FORMAT };
  return {
    $schema: SCHEMA_DIALECT,
    title: `storebench results (${RESULTS_FORMAT})`,
    description: 'What `node test --json FILE` writes. Generated from result/fields.js by `node result/schema.js`; ' +
      'docs/results-format.md says what each field means.',
    ...schema,
  };
}

/** The file's text. */
export const schemaText = () => `${JSON.stringify(resultsSchema(), null, 2)}\n`;

if (isMain(import.meta.url)) {
  await writeFile(SCHEMA_PATH, schemaText());
}
