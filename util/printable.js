// Text that came over the network (a target's /stores reasons, its store names, an answer's
// body quoted in an error) may carry terminal control sequences: ESC ] 0 ; sets the window
// title, ESC [ 2K ESC [ 1A erases and rewrites lines, so a hostile target could print a fake
// "all good" over the real result. Every such text goes through printable() before it is
// printed: one line, with no control characters left to act on.

// C0 controls and DEL, C1 controls (0x9b is a one-byte CSI to some terminals), and the
// invisible Unicode marks that reorder or break lines (bidirectional overrides and isolates,
// line and paragraph separators).
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** text as one printable line: line breaks and tabs become spaces, other control characters are removed. */
export function printable(text) {
  return String(text).replace(/\r\n|[\r\n\t\v\f\u2028\u2029]/g, ' ').replace(CONTROL, '');
}
