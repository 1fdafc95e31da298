/** What a JSON value is, for a problem that must not quote it: "null", "a list", "text", "a number", ... */
export function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
