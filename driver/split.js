// Whole numbers shared out: the workers' shares of a load (workers.js) and the parts' shares of
// a key space (parts.js).

/** `total` split into `parts` whole numbers as even as possible, the larger ones first (10 in 3: 4, 3, 3). */
export function splitEvenly(total, parts) {
  const base = Math.floor(total / parts);
  const extra = total % parts;
  return Array.from({ length: parts }, (_, index) => base + (index < extra ? 1 : 0));
}

/** `total` split into whole numbers in proportion to `weights` (largest remainders first), each at least 1. */
export function splitInProportion(total, weights) {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((value, index) => [value - shares[index], index])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, index] of byRemainder) {
    if (left === 0) break;
    shares[index] += 1;
    left -= 1;
  }
  return shares.some((share) => share < 1) ? splitEvenly(total, weights.length) : shares;
}
