// A sweep's settings for tests that call runSweep without a run: the options the sweep reads
// that a test leaves out take the options table's defaults, as normalized options would.
import { defaultOf } from '../../options/table.js';

export const sweepSettings = (given) => ({
  workers: defaultOf('workers'),
  repeat: defaultOf('repeat'),
  warmupMaxSeconds: defaultOf('warmupMax'),
  ...given,
});
