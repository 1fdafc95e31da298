// Study 000: Cloudant vs Redis behind one Express app, GET of three documents at concurrency
// 5 to 30, 100 requests each, with loadtest (no keep-alive). Their figures below are theirs:
// IBM Cloud US South, measured from a laptop in Japan, so WAN time dominates every latency.
const CONCURRENCY = [5, 10, 15, 20, 25, 30];
const KEYS = ['key1', 'key2', 'key3'];

const published = {
  'cloudant/key1': [
    [7, 698.7, 1326, 615], [14, 669.6, 1171, 613], [17, 832.3, 1259, 621],
    [18, 928.1, 2660, 609], [17, 1026.8, 4411, 610], [17, 1186.7, 4566, 619],
  ],
  'redis/key1': [
    [7, 661.2, 1684, 610], [15, 641.6, 748, 610], [21, 702.5, 1805, 612],
    [27, 657.5, 1130, 608], [34, 678.8, 893, 619], [36, 710.4, 940, 632],
  ],
  'cloudant/key2': [
    [5, 1012.8, 1770, 915], [10, 1022, 1281, 932], [12, 1213.6, 1710, 936],
    [15, 1270.4, 2289, 918], [14, 1560.4, 3897, 933], [16, 1532.6, 3403, 943],
  ],
  'redis/key2': [
    [5, 952.9, 1112, 898], [10, 973.2, 1138, 912], [14, 981.1, 1145, 911],
    [19, 989.3, 1194, 909], [22, 1002.4, 1357, 904], [25, 1008, 1351, 910],
  ],
  'cloudant/key3': [
    [3, 1742.6, 2255, 1437], [5, 1760.6, 2310, 1416], [7, 2077.1, 7628, 1426],
    [10, 1955, 4872, 1430], [11, 2014.2, 3552, 1523], [12, 2011.2, 3792, 1485],
  ],
  'redis/key3': [
    [3, 1592.5, 1994, 1400], [6, 1562, 2231, 1374], [9, 1563.8, 2682, 1419],
    [10, 1733.7, 3211, 1398], [10, 2134, 6535, 1392], [14, 1809.2, 2405, 1426],
  ],
};
const publishedRows = Object.fromEntries(Object.entries(published).flatMap(([url, lines]) =>
  lines.map(([rps, meanLatencyMs, maxLatencyMs, minLatencyMs], i) => [
    `${url} c=${CONCURRENCY[i]}`,
    { maxRequests: 100, concurrency: CONCURRENCY[i], rps, meanLatencyMs, maxLatencyMs, minLatencyMs },
  ])));

// The study's network lay between its client (a laptop in Japan) and its app (US South); its
// app and Cloudant sat in one region. Its floor, the fastest request through either store
// (minLatencyMs), was 608-632 ms for key1 at every concurrency: a whole request with nothing
// queued. loadtest opened a connection per request (no keep-alive), so here each request pays
// two of the emulated round trips, the TCP handshake and the request itself: 300 ms gives the
// same 600 ms floor (their path paid TLS's round trips too; the sum is what counts). A client's
// loop then takes about 0.6 s and closed-loop rps is concurrency / 0.6: 8.3 at c=5 and 16.7 at
// c=10, under Lite's 20 lookups/s, and 25 at c=15, over it; so the plateau can appear from
// c=15, where the study's Cloudant (17 rps) fell behind its Redis (21). At 400 ms (0.8 s a
// request) it could appear only from c=20.
//
// Why not between the app and the stores (--store-rtt): @cloudant/cloudant, the study's
// client, keeps at most 6 sockets, so 600 ms to Cloudant would cap it at 6 / 0.6 = 10 rps, a
// limit the study never met with its app beside Cloudant; and each Lite retry would cross the
// ocean again, where the study's stayed in US South.
const STUDY_CLIENT_RTT_MS = 300;

// The study's floor grew with the document: 608-632 ms for key1 (23 B), 898-943 for key2 (29 KB)
// and 1,374-1,523 for key3 (263 KB) through either store. key3's extra 0.79 s for its 263 KB is
// 325 KB a second, which is the link here, each connection its own: thirty of the study's key3
// requests at once still made 12-14 a second (3.5 MB/s together), so what held each request was
// its own connection's window across the Pacific, not a path the thirty shared. The proxy has
// no slow start, so key2's 29 KB costs 0.09 s here where the study's took 0.3 s.
const STUDY_CLIENT_BANDWIDTH = 325 * 1024;
// Judged negligible: under a hundredth of the request that carried the document.
const NEGLIGIBLE_SHARE = 0.01;
const CLIENT_RTT_TEXT = `the ${STUDY_CLIENT_RTT_MS} ms round trip between the driver and the app (the scenario's ` +
  'clientDelay, the study\'s network)';

const PUBLISHED_PARSE_MS = { key1: 0.081, key2: 0.094, key3: 0.857 };

// One run per store, so each store's steps are its own and Redis never waits on Cloudant's
// window. `cloudant` is the study's client (@cloudant/cloudant, our cloudant-legacy) under
// Lite's limits, as the study ran it; `cloudant-no-limits` the same without them (an app of
// its own: the plan is the app's); `ibm-cloudant` the current client (@ibm-cloud/cloudant)
// under Lite, a second row beside the study's. A request's deadline of 30 s, not the driver's
// usual 10 s: a request to the app crosses the emulated network (0.6 s, 1.4 s for key3), and
// inside the app a lookup refused by Lite waits 0.5 s for each of its up to 10 retries.
// engine loadtest: the study's own tool, named here since fast became the default.
const runs = ({ requests, concurrency, keys, ibmKeys = keys }) => [
  { id: 'cloudant', store: 'cloudant-legacy', keys },
  { id: 'redis', store: 'redis', keys },
  { id: 'cloudant-no-limits', store: 'cloudant-legacy', keys, env: { STOREBENCH_CLOUDANT_PLAN: 'none' } },
  { id: 'ibm-cloudant', store: 'cloudant', keys: ibmKeys },
].map(({ id, store, keys: runKeys, env }) => ({
  id,
  label: `/${store}${env ? ' (no plan limits)' : ''}`,
  options: {
    stores: store,
    keys: runKeys,
    requests,
    concurrency,
    noKeepalive: true,
    warmup: 0,
    timeout: 30000,
    engine: 'loadtest',
  },
  ...(env ? { env } : {}),
}));

export default {
  name: 'cloudant-vs-redis',
  title: 'Cloudant vs Redis: GET of key1..key3, 100 requests at concurrency 5 to 30, no keep-alive',
  summary: 'study 000: /cloudant and /redis key1..key3 at c=5..30, -n 100, Cloudant Lite\'s rate limits and the ' +
    'study\'s network (600 ms a request, 325 KB/s a connection) emulated',
  study: {
    file: '000_c85c4c32eeb7804a.txt',
    source: 'https://cloudant-redis-performance-test-ippei.mybluemix.net (the app the study measured; ' +
      'the text names no article URL)',
    author: 'ippei (from the app\'s name)',
    hardware: 'Express app on IBM Cloud (US South) with Cloudant Lite and Redis Cloud; ' +
      'loadtest run from a laptop in Japan',
    date: 'not given in the text (it uses @cloudant/cloudant and the Bluemix CLI: 2018 or so)',
  },
  kind: 'sweep',
  // The study's Cloudant was a Lite instance: 20 lookups/s, retried after 0.5 s (--cloudant-plan none turns it off).
  cloudantPlan: 'lite',
  // The network between the driver and the app (--client-rtt and --client-bandwidth change it).
  clientDelay: { rttMs: STUDY_CLIENT_RTT_MS, bandwidth: STUDY_CLIENT_BANDWIDTH },
  clientDelayWhy: 'the study\'s: its fastest key1 requests took 608-632 ms through either store, Japan to US South ' +
    `and back; without keep-alive a request here pays two ${STUDY_CLIENT_RTT_MS} ms round trips ` +
    '(handshake, request), so a client\'s loop takes 0.6 s and Lite\'s 20 lookups/s falls between c=10 (16.7 rps) ' +
    'and c=15 (25 rps), where the study\'s Cloudant levelled off; its key3 took 0.79 s more for 263 KB, 325 KB/s ' +
    'on each connection',
  app: { stores: ['cloudant-legacy', 'cloudant', 'redis'] },
  notes: [
    'ours: the embedded CouchDB stand-in (express-pouchdb) and Redis on this machine, the study\'s network emulated ' +
      'between the driver and the app, where theirs lay; not between the app and the stores (--store-rtt): ' +
      '@cloudant/cloudant keeps at most 6 sockets, so there it would cap Cloudant at 6 / RTT, a limit the study\'s ' +
      'app, beside its Cloudant, never met',
    'rows: cloudant is the study\'s client, @cloudant/cloudant (the cloudant-legacy store), under Lite\'s limits as ' +
      'the study ran it; cloudant-no-limits the same store and network without them; ibm-cloudant the current ' +
      'client, @ibm-cloud/cloudant (the cloudant store), under Lite: a second row, not in the study',
    'redis-faster is judged against cloudant-no-limits: under Lite, its cap of 20 lookups/s would decide it ' +
      'whatever the stores did; the plateau is judged on cloudant, beside the same run without the limits; ' +
      'advantage-shrinks on cloudant, as the study compared them: whether key3\'s time on the link brings Redis\'s ' +
      'rate down to Lite\'s',
    'the client link carries 325 KB/s on each connection (the study\'s key3 took 0.79 s more than key1 for its ' +
      '263 KB); the proxy has no TCP slow start, so key2 (29 KB) pays 0.09 s here where the study\'s paid 0.3 s',
    'the JSON parse table is timed in the driver\'s process on this machine (the median of timed batches after a ' +
      'warm-up, as node test-json does); the study timed its own machine\'s parse',
    'the 429s seen and retries columns are the cloudant store\'s, from /stores after each step; the ' +
      'study\'s tables had no such column',
    'rps here is loadtest\'s own definition, responses / elapsed (from the first request\'s start to the last one\'s ' +
      'end), as the study\'s tables had it: with only 100 requests a step, the mean busy time storebench uses ' +
      'elsewhere (docs/measurement.md) would leave out the tail of clients waiting out a 429\'s 0.5 s retry',
  ],
  extras: [
    { name: 'seen429', stat: 'rateLimited.seen429' },
    { name: 'retries', stat: 'rateLimited.retries' },
  ],
  // JSON.parse of key1..key3 timed here (test-json's measurement), a table of its own.
  jsonParseTable: {
    id: 'json-parse',
    title: 'JSON.parse of each document, ms (test-json\'s measurement)',
    rowHeader: 'document',
  },
  tables: [{
    id: 'sweep',
    title: 'GET per URL and concurrency (the study\'s loadtest columns)',
    rowHeader: 'url, concurrency',
    row: '{run}/{key} c={concurrency}',
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
    tiny: {
      note: 'key1 only, 20 requests at concurrency 5, 15 and 30: seconds, for tests',
      runs: runs({ requests: 20, concurrency: [5, 15, 30], keys: ['key1'] }),
    },
    default: {
      note: 'the study\'s own settings: key1..key3, 100 requests, concurrency 5 to 30 (the second ' +
        'client, ibm-cloudant, key1 only)',
      runs: runs({ requests: 100, concurrency: CONCURRENCY, keys: KEYS, ibmKeys: ['key1'] }),
    },
    full: {
      note: 'the study\'s own settings, every client at every key',
      runs: runs({ requests: 100, concurrency: CONCURRENCY, keys: KEYS }),
    },
  },
  published: [
    {
      id: 'sweep',
      title: 'published: loadtest from a laptop in Japan to IBM Cloud US South (Cloudant Lite, @cloudant/cloudant)',
      rows: publishedRows,
    },
    {
      id: 'json-parse',
      title: 'published: test-json on the author\'s machine',
      rows: Object.fromEntries(Object.entries(PUBLISHED_PARSE_MS).map(([key, parseMs]) => [key, { parseMs }])),
    },
  ],
  conclusions: [
    {
      id: 'redis-faster',
      // The study: "overall, Redis Cloud wins overwhelmingly"; its own key3 c=25 has Cloudant ahead (11 vs 10 rps).
      claim: 'overall, Redis serves overwhelmingly more requests per second than Cloudant (the study: ahead in most ' +
        'pairs of concurrency and size; level at c=5, and behind at key3 c=25, 10 vs 11 rps). Judged against ' +
        'Cloudant without Lite\'s limits, which would otherwise decide it',
      uses: ['redis', 'cloudant-no-limits'],
      // Each request here pays 0.6 s of the client's network, so Cloudant must be some 70 ms slower
      // a request before Redis leads by the margin: put it a region away from the app.
      counter: {
        change: 'Cloudant 300 ms from the app, as a Cloudant in another region would be',
        how: '--store-rtt cloudant-legacy=300',
        system: { storeDelay: { rttMs: { stores: { 'cloudant-legacy': 300 } } } },
      },
      check: {
        type: 'faster',
        table: 'sweep',
        column: 'rps',
        faster: 'redis/',
        slower: 'cloudant-no-limits/',
        in: 'most',
      },
    },
    {
      id: 'cloudant-plateau',
      claim: 'Cloudant (Lite) rises, then levels off from concurrency 15 on (7 rps at c=5, about 17 for key1 from ' +
        'c=15), held by its 20 lookups/s',
      uses: ['cloudant'],
      counter: {
        change: 'the CouchDB stand-in without Lite\'s cap of 20 lookups a second',
        how: '--cloudant-plan none',
        system: { cloudantPlan: 'none' },
      },
      // "Rises, then levels off", not "flat from c=5": c=5 must be below the plateau.
      check: {
        type: 'plateau',
        table: 'sweep',
        column: 'rps',
        rows: { prefix: 'cloudant/key1 c=', from: 15 },
        before: { prefix: 'cloudant/key1 c=', to: 5 },
        tolerance: 0.2,
      },
    },
    {
      id: 'plateau-is-lite',
      ours: true,
      claim: 'the plateau is Lite\'s limits: the same Cloudant, network and load without them keeps rising where it ' +
        'levels off with them (at least 1.5x from c=15 to the highest concurrency)',
      uses: ['cloudant', 'cloudant-no-limits'],
      counter: {
        change: 'the CouchDB stand-in without Lite\'s cap of 20 lookups a second',
        how: '--cloudant-plan none',
        system: { cloudantPlan: 'none' },
      },
      check: {
        type: 'all-of',
        checks: [
          {
            type: 'rises',
            table: 'sweep',
            column: 'rps',
            rows: { prefix: 'cloudant-no-limits/key1 c=', from: 15 },
            atLeast: 1.5,
          },
          {
            type: 'plateau',
            table: 'sweep',
            column: 'rps',
            rows: { prefix: 'cloudant/key1 c=', from: 15 },
            before: { prefix: 'cloudant/key1 c=', to: 5 },
            tolerance: 0.2,
          },
        ],
      },
    },
    {
      id: 'redis-rises',
      claim: 'Redis keeps rising with concurrency (7 to 36 rps for key1 from c=5 to c=30)',
      uses: ['redis'],
      setBy: `${CLIENT_RTT_TEXT}: every request is 0.6 s in flight, so c clients make c / 0.6 requests a second ` +
        '(8.3 at c=5, 41.7 at c=30 for 100 requests) whatever a store answering in milliseconds does',
      check: { type: 'rises', table: 'sweep', column: 'rps', rows: { prefix: 'redis/key1 c=' }, atLeast: 2 },
    },
    {
      id: 'advantage-shrinks',
      claim: 'the larger the document, the smaller Redis\'s advantage (key1 2.1x at c=30, key3 1.2x), against the ' +
        'study\'s Cloudant (Lite): key3\'s time on the link holds Redis\'s rate down to what Lite allows',
      uses: ['redis', 'cloudant'],
      // Without the link's bandwidth key3 crosses as fast as key1, and the document's size no longer matters.
      counter: {
        change: 'the client link without the study\'s bandwidth, so key3 crosses it as fast as key1',
        how: '--client-bandwidth 0',
        system: { clientDelay: { bandwidth: 0 } },
      },
      check: {
        type: 'ratio-falls',
        table: 'sweep',
        column: 'rps',
        pairs: [
          ['redis/key1 c=30', 'cloudant/key1 c=30'],
          ['redis/key3 c=30', 'cloudant/key3 c=30'],
        ],
      },
    },
    {
      id: 'json-parse-negligible',
      claim: 'parsing the JSON takes under 1 ms even for the 200 KB document, so it does not matter ' +
        '(0.081, 0.094 and 0.857 ms in the study; judged as: each document\'s parse is under a hundredth of its ' +
        'request through Redis at c=5)',
      uses: ['redis'],
      // On loopback a request takes milliseconds, and parsing key3 is a part of one that shows.
      counter: {
        change: 'no network between the driver and the app (loopback), so a request takes milliseconds',
        how: '--client-rtt 0 --client-bandwidth 0',
        system: { clientDelay: { rttMs: 0, bandwidth: 0 } },
      },
      check: {
        type: 'share-below',
        table: 'json-parse',
        column: 'parseMs',
        of: { table: 'sweep', column: 'meanLatencyMs', row: 'redis/{row} c=5' },
        below: NEGLIGIBLE_SHARE,
      },
    },
    {
      id: 'network-dominates',
      claim: 'most of each request\'s time is the network between the client and the app (judged as: at the lowest ' +
        'load, key1\'s mean latency through Cloudant without limits and through Redis are level, so what the stores ' +
        'add is small beside what both pay)',
      uses: ['redis', 'cloudant-no-limits'],
      setBy: `${CLIENT_RTT_TEXT}: every request pays 0.6 s of it (more for the larger documents), which a store ` +
        'answering in milliseconds cannot approach, so the two means are level whatever the stores do',
      check: {
        type: 'level',
        table: 'sweep',
        column: 'meanLatencyMs',
        row: 'cloudant-no-limits/key1 c=5',
        other: 'redis/key1 c=5',
      },
    },
  ],
};
