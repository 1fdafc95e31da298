// A worker process of node app.js --workers N: forked by the primary (app/cluster-primary.js),
// never run by hand. Prints its requests' log lines (--log) to the output it shares with the
// primary, and exits with its code once the primary has stopped it.
import { runWorker } from '../app/cluster-worker.js';
import { isMain } from '../util/is-main.js';

if (isMain(import.meta.url)) process.exit(await runWorker({ log: (line) => console.log(line) }));
