// Text from the network (a target's reasons, store names, a quoted body) may carry terminal control
// sequences: a hostile target could rewrite lines to print a fake "all good" over the real result.
// Every such text goes through printable() before it is printed.

// C0 and C1 controls (0x9b is a one-byte CSI to some terminals), and marks that reorder or break lines.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(text) {
  return String(text).replace(/\r\n|[\r\n\t\v\f\u2028\u2029]/g, ' ').replace(CONTROL, '');
}
