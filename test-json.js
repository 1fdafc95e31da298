// node test-json: how long JSON.parse and JSON.stringify take for each payload; the work is in
// cli/test-json.js (flags, printing) and driver/json-timing.js (timing).
import { main } from './cli/test-json.js';

process.exitCode = await main(process.argv.slice(2));
