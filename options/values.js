// How a number option reads: the value, or null when it is not one. Code gives a number, the
// command line its text; each is judged as what it is, by the same rule.
const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$|^\.\d+$/;

// A finite number as given (-0 as 0), or the number the text writes in the pattern's form.
function numberOf(value, pattern) {
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  return typeof value === 'string' && pattern.test(value) ? Number(value) : null;
}

export function nonNegativeInteger(value) {
  const number = numberOf(value, WHOLE);
  return Number.isInteger(number) && number >= 0 ? number : null;
}

export function nonNegativeNumber(value) {
  const number = numberOf(value, DECIMAL);
  return number !== null && number >= 0 ? number : null;
}

const positive = (read) => (value) => {
  const number = read(value);
  return number > 0 ? number : null;
};
export const positiveInteger = positive(nonNegativeInteger);
export const positiveNumber = positive(nonNegativeNumber);

/** A number as help lines and problems write it (10,000). */
export const shown = (value) => value.toLocaleString('en-US');

const splitList = (text) => text.split(',').map((item) => item.trim()).filter(Boolean);

/** A list option's items: its text split at commas, or code's array (its strings split the same way). */
export const listItems = (value) =>
  [].concat(value).flatMap((item) => (typeof item === 'string' ? splitList(item) : [item]));
