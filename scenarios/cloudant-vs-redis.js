// Study 000: Cloudant vs Redis behind one Express app, GET of three documents at concurrency
// 5 to 30, 100 requests each, with loadtest (no keep-alive). Their figures below are theirs:
// IBM Cloud US South, measured from a laptop in Japan, so WAN time dominates every latency.
const CONCURRENCY = [5, 10, 15, 20, 25, 30];
const KEYS = ['key1', 'key2', 'key3'];

// The study's six tables as one: a row per URL and concurrency, its columns.
const published = {
  'cloudant/key1': [[7, 698.7, 1326, 615], [14, 669.6, 1171, 613], [17, 832.3, 1259, 621], [18, 928.1, 2660, 609], [17, 1026.8, 4411, 610], [17, 1186.7, 4566, 619]],
  'redis/key1': [[7, 661.2, 1684, 610], [15, 641.6, 748, 610], [21, 702.5, 1805, 612], [27, 657.5, 1130, 608], [34, 678.8, 893, 619], [36, 710.4, 940, 632]],
  'cloudant/key2': [[5, 1012.8, 1770, 915], [10, 1022, 1281, 932], [12, 1213.6, 1710, 936], [15, 1270.4, 2289, 918], [14, 1560.4, 3897, 933], [16, 1532.6, 3403, 943]],
  'redis/key2': [[5, 952.9, 1112, 898], [10, 973.2, 1138, 912], [14, 981.1, 1145, 911], [19, 989.3, 1194, 909], [22, 1002.4, 1357, 904], [25, 1008, 1351, 910]],
  'cloudant/key3': [[3, 1742.6, 2255, 1437], [5, 1760.6, 2310, 1416], [7, 2077.1, 7628, 1426], [10, 1955, 4872, 1430], [11, 2014.2, 3552, 1523], [12, 2011.2, 3792, 1485]],
  'redis/key3': [[3, 1592.5, 1994, 1400], [6, 1562, 2231, 1374], [9, 1563.8, 2682, 1419], [10, 1733.7, 3211, 1398], [10, 2134, 6535, 1392], [14, 1809.2, 2405, 1426]],
};
const publishedRows = Object.fromEntries(Object.entries(published).flatMap(([url, lines]) => lines.map(([rps, meanLatencyMs, maxLatencyMs, minLatencyMs], i) => [
  `${url} c=${CONCURRENCY[i]}`,
  { maxRequests: 100, concurrency: CONCURRENCY[i], rps, meanLatencyMs, maxLatencyMs, minLatencyMs },
])));

// One run per store, so each store's steps are its own and Redis never waits on Cloudant's window.
const runs = ({ requests, concurrency, keys }) => ['cloudant', 'redis'].map((store) => ({
  id: store,
  label: `/${store}`,
  flags: { stores: store, keys, requests, concurrency, keepalive: false, warmup: 0 },
}));

export default {
  name: 'cloudant-vs-redis',
  title: 'Cloudant vs Redis: GET of key1..key3, 100 requests at concurrency 5 to 30, no keep-alive',
  summary: 'study 000: /cloudant and /redis key1..key3 at c=5..30, -n 100, Cloudant Lite\'s rate limits emulated',
  study: {
    file: '000_c85c4c32eeb7804a.txt',
    source: 'https://cloudant-redis-performance-test-ippei.mybluemix.net (the app the study measured; the text names no article URL)',
    author: 'ippei (from the app\'s name)',
    hardware: 'Express app on IBM Cloud (US South) with Cloudant Lite and Redis Cloud; loadtest run from a laptop in Japan',
    date: 'not given in the text (it uses @cloudant/cloudant and the Bluemix CLI: 2018 or so)',
  },
  kind: 'sweep',
  // The study's Cloudant was a Lite instance: 20 lookups/s, retried after 0.5 s (--cloudant-plan none turns it off).
  cloudantPlan: 'lite',
  app: { stores: ['cloudant', 'redis'] },
  notes: [
    'ours: the embedded CouchDB stand-in (express-pouchdb) behind the cloudant store, and Redis, all on this machine: no WAN, so latencies are milliseconds where theirs were the network\'s 600 ms and up',
    'the 429s seen and retries columns are the cloudant store\'s, from /stores after each step; the study\'s tables had no such column',
    'rps here is loadtest\'s own definition, responses / elapsed (from the first request\'s start to the last one\'s end), as the study\'s tables had it: with only 100 requests a step, the mean busy time storebench uses elsewhere (docs/measurement.md) would leave out the tail of clients waiting out a 429\'s 0.5 s retry',
  ],
  extras: [
    { name: 'seen429', stat: 'rateLimited.seen429' },
    { name: 'retries', stat: 'rateLimited.retries' },
  ],
  tables: [{
    id: 'sweep',
    title: 'GET per URL and concurrency (the study\'s loadtest columns)',
    rowHeader: 'url, concurrency',
    row: '{store}/{key} c={concurrency}',
    columns: [
      { id: 'maxRequests', label: 'maxRequests', unit: '', metric: 'requests' },
      { id: 'concurrency', label: 'concurrency', unit: '', metric: 'concurrency' },
      { id: 'rps', label: 'rps', unit: 'req/s', metric: 'elapsedRps' },
      { id: 'meanLatencyMs', label: 'meanLatencyMs', unit: 'ms', metric: 'latency.meanMs' },
      { id: 'maxLatencyMs', label: 'maxLatencyMs', unit: 'ms', metric: 'latency.maxMs' },
      { id: 'minLatencyMs', label: 'minLatencyMs', unit: 'ms', metric: 'latency.minMs' },
      { id: 'seen429', label: '429s seen', unit: '', metric: 'extra:seen429' },
      { id: 'retries', label: 'retries', unit: '', metric: 'extra:retries' },
    ],
  }],
  scales: {
    tiny: { note: 'key1 only, 20 requests at concurrency 5, 15, 20 and 30: seconds, for tests', runs: runs({ requests: 20, concurrency: [5, 15, 20, 30], keys: ['key1'] }) },
    default: { note: 'the study\'s own settings: key1..key3, 100 requests, concurrency 5 to 30', runs: runs({ requests: 100, concurrency: CONCURRENCY, keys: KEYS }) },
    full: { note: 'the same as default: the study\'s sizes are small enough to run whole here', runs: runs({ requests: 100, concurrency: CONCURRENCY, keys: KEYS }) },
  },
  published: [{ id: 'sweep', title: 'published: loadtest from a laptop in Japan to IBM Cloud US South', rows: publishedRows }],
  conclusions: [
    {
      id: 'redis-faster',
      // The study: "overall, Redis Cloud wins overwhelmingly"; its own key3 c=25 has Cloudant ahead (11 vs 10 rps).
      claim: 'overall, Redis serves overwhelmingly more requests per second than Cloudant (the study: ahead in most pairs of concurrency and size; level at c=5, and behind at key3 c=25, 10 vs 11 rps)',
      check: { type: 'faster', table: 'sweep', column: 'rps', faster: 'redis/', slower: 'cloudant/', in: 'most' },
    },
    {
      id: 'cloudant-plateau',
      claim: 'Cloudant (Lite) rises, then levels off from concurrency 15 on (7 rps at c=5, about 17 for key1 from c=15), held by its 20 lookups/s',
      // "Rises, then levels off", not "flat from c=5": c=5 must be below the plateau.
      check: { type: 'plateau', table: 'sweep', column: 'rps', rows: { prefix: 'cloudant/key1 c=', from: 15 }, before: { prefix: 'cloudant/key1 c=', to: 5 }, tolerance: 0.2 },
    },
    {
      id: 'redis-rises',
      claim: 'Redis keeps rising with concurrency (7 to 36 rps for key1 from c=5 to c=30)',
      check: { type: 'rises', table: 'sweep', column: 'rps', rows: { prefix: 'redis/key1 c=' }, atLeast: 2 },
    },
    {
      id: 'advantage-shrinks',
      claim: 'the larger the document, the smaller Redis\'s advantage (key1 2.1x at c=30, key3 1.2x)',
      check: { type: 'ratio-falls', table: 'sweep', column: 'rps', pairs: [['redis/key1 c=30', 'cloudant/key1 c=30'], ['redis/key3 c=30', 'cloudant/key3 c=30']] },
    },
    {
      id: 'json-parse-negligible',
      claim: 'parsing the JSON takes under 1 ms even for the 200 KB document, so it does not matter',
      notRunnable: 'a separate measurement: node test-json times JSON.parse of key1..key3 on this machine',
    },
    {
      id: 'network-dominates',
      claim: 'most of each request\'s time is the network between the client and the app',
      notRunnable: 'here the driver, the app and the servers share one machine\'s loopback: there is no WAN to measure',
    },
  ],
};
