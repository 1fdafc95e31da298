// node test-json: how long JSON.parse and JSON.stringify take for each payload; the work is in
// cli/test-json.js (flags, printing) and driver/json-timing.js (timing).
import './cli/test-json.js';
