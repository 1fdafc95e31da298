// How a number option's text reads: the value, or null when it is not one. A number from code
// is read as the text it would be on the command line, so both are judged alike.
export const positiveInteger = (text) => (/^\d+$/.test(text) && Number(text) > 0 ? Number(text) : null);
export const nonNegativeInteger = (text) => (/^\d+$/.test(text) ? Number(text) : null);
export const nonNegativeNumber = (text) => (/^\d+(\.\d+)?$|^\.\d+$/.test(text) ? Number(text) : null);
export const positiveNumber = (text) =>
  (/^\d+(\.\d+)?$|^\.\d+$/.test(text) && Number(text) > 0 ? Number(text) : null);
export const splitList = (text) => text.split(',').map((item) => item.trim()).filter(Boolean);
