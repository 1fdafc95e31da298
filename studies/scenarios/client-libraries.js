// Study 001: two Node.js clients of one Kyoto Tycoon server, five serial scripts of appends,
// sets and gets (33 B appends, 320 B sets, 320 KB and 320 MB values), time per script in ms.
// Neither client nor the server can be had any more, so the study's method runs here on the
// clients we have, each group on one server: node-redis vs ioredis, and the three CouchDB
// clients on the CouchDB stand-in. Their figures below are theirs, on their machine.
const MB = 1_000_000;
// The scripts short enough to time three times (one outlier in one timing cannot flip a
// verdict then); get_random, the long one, runs once.
const SHORT_SCRIPTS_THRICE = { serial_put_large: 3, serial_put_big: 3, get_random_large: 3, get_random_big: 3 };

export default {
  name: 'client-libraries',
  title: 'client libraries on one server: five serial scripts of appends, sets and gets, ms per script',
  summary: 'study 001: kyoto-client vs kyoto-tycoon, re-run as node-redis vs ioredis and the three ' +
    'CouchDB clients, strictly serial',
  study: {
    file: '001_5b59b37f39e2c019.txt',
    source: 'the author\'s blog (the text names its gist "set/append/get performance test ' +
      'script of kyoto-client", no URL)',
    author: 'tagomoris',
    hardware: 'the author\'s own machine (not described), one Kyoto Tycoon server with a file hash DB and a ' +
      'directory hash DB; the node process at 99%+ CPU',
    date: 'not given in the text',
  },
  kind: 'serial',
  groups: [
    { id: 'redis', server: 'redis-server', stores: ['redis', 'ioredis'] },
    {
      id: 'couchdb',
      server: 'CouchDB stand-in (no Cloudant Lite emulation)',
      stores: ['cloudant', 'couchdb-nano', 'cloudant-legacy'],
    },
  ],
  labels: {
    redis: 'node-redis',
    ioredis: 'ioredis',
    cloudant: '@ibm-cloud/cloudant',
    'couchdb-nano': 'nano',
    'cloudant-legacy': '@cloudant/cloudant',
  },
  // For the published table's columns (studies/tables.js publishedTable).
  tables: [{
    id: 'scripts',
    title: 'time per script, clients side by side',
    rowHeader: 'script',
    columns: [
      { id: 'kyoto-client', label: 'kyoto-client', unit: 'ms' },
      { id: 'kyoto-tycoon', label: 'kyoto-tycoon', unit: 'ms' },
    ],
  }],
  scales: {
    tiny: {
      note: 'a handful of rounds (3 puts, 20 random get pairs, 3 large gets) and a 1 MB big value: seconds, for tests',
      iterations: { serial_put_large: 3, serial_put_big: 2, get_random: 20, get_random_large: 3, get_random_big: 1 },
      bigValueBytes: 1 * MB,
      repeats: { serial_put_large: 2, serial_put_big: 2, get_random: 2, get_random_large: 2, get_random_big: 2 },
    },
    default: {
      note: 'the study\'s rounds (144, 2, 14,400, 144, 1); the big value 32 MB instead of 320 MB; every script but ' +
        'get_random timed 3 times, the median shown',
      bigValueBytes: 32 * MB,
      repeats: SHORT_SCRIPTS_THRICE,
      repeatsNote: 'its 28,800 operations already average out one slow one, and three times would take the default ' +
        'scale past 5 minutes on the CouchDB clients',
    },
    full: {
      note: 'the study\'s rounds and its 320 MB big value on both servers; serial_put_large and get_random_large ' +
        'timed 3 times, the median shown. The CouchDB stand-in takes a 320 MB value (a 427 MB base64 document); ' +
        'a real CouchDB (max_document_size 8 MB by default) or Cloudant (1 MB documents) would refuse it',
      bigValueBytes: 320 * MB,
      repeats: { serial_put_large: 3, get_random_large: 3 },
      repeatsNote: 'get_random\'s 28,800 operations already average out one slow one; the 320 MB ' +
        'scripts take minutes each time',
    },
  },
  published: [{
    id: 'scripts',
    title: 'published: kyoto-client (kc_test.js) then kyoto-tycoon (kt_test.js), one run on the author\'s machine',
    rows: {
      serial_put_large: { 'kyoto-client': 311, 'kyoto-tycoon': 2714 },
      serial_put_big: { 'kyoto-client': 316513, 'kyoto-tycoon': 242581 },
      get_random: { 'kyoto-client': 2263, 'kyoto-tycoon': 3260 },
      get_random_large: { 'kyoto-client': 81, 'kyoto-tycoon': 991 },
      get_random_big: { 'kyoto-client': 206, 'kyoto-tycoon': 2086 },
    },
  }],
  // The study timed the client itself (its node process at 99%+): a driver at a full core is
  // what it measured, not a flaw of a figure here.
  expectedWarnings: ['DRIVER_CPU'],
  conclusions: [
    {
      id: 'kyoto-client-faster',
      claim: 'kyoto-client is clearly faster than kyoto-tycoon on every script but serial_put_big',
      notRunnable: 'neither kyoto-client nor kyoto-tycoon is in the npm registry any more, and no Kyoto Tycoon ' +
        'server is packaged (Debian has only Kyoto Cabinet)',
    },
    {
      id: 'big-set-reverses',
      claim: 'only the very large set reverses the order: kyoto-tycoon wrote the 320 MB values ' +
        'faster (242,581 vs 316,513 ms)',
      notRunnable: 'neither kyoto-client nor kyoto-tycoon is in the npm registry any more, and no Kyoto Tycoon ' +
        'server is packaged (Debian has only Kyoto Cabinet)',
    },
    {
      id: 'client-bound',
      claim: 'the node process ran at 99%+ CPU throughout, so the differences are the client libraries\' own',
      uses: ['redis', 'ioredis', 'cloudant', 'couchdb-nano', 'cloudant-legacy'],
      noCounter: 'a client runs at 90% of a core only while it never waits, and each of its operations waits for a ' +
        'server here (the CouchDB stand-in does more work for each than its client does); a network or a limit ' +
        'on the server only lengthens the wait, and no change of the system makes a server answer in no time',
      check: { type: 'all-at-least', table: 'cpu', atLeast: 90 },
    },
    {
      id: 'redis-pair-like-study',
      ours: true,
      claim: 'on our clients, as in the study: node-redis or ioredis is faster on every script but ' +
        'serial_put_big, where the other one wins',
      uses: ['redis', 'ioredis'],
      noCounter: 'the study\'s shape (one client fastest on every script but the big set, where another wins) ' +
        'comes from the clients\' own code: a network or a limit on one client\'s server slows it by its ' +
        'operations or its bytes, which slows the big set together with the 320 KB scripts or with the many small ' +
        'ones, so no change of the system turns the order at the big set alone',
      check: { type: 'best-except', table: 'scripts', columns: ['redis', 'ioredis'], except: ['serial_put_big'] },
    },
    {
      id: 'couchdb-clients-like-study',
      ours: true,
      claim: 'on our clients, as in the study: one CouchDB client is faster on every script but ' +
        'serial_put_big, where another wins',
      uses: ['cloudant', 'couchdb-nano', 'cloudant-legacy'],
      noCounter: 'the study\'s shape (one client fastest on every script but the big set, where another wins) ' +
        'comes from the clients\' own code: a network or a limit on one client\'s server slows it by its ' +
        'operations or its bytes, which slows the big set together with the 320 KB scripts or with the many small ' +
        'ones, so no change of the system turns the order at the big set alone',
      check: {
        type: 'best-except',
        table: 'scripts',
        columns: ['cloudant', 'couchdb-nano', 'cloudant-legacy'],
        except: ['serial_put_big'],
      },
    },
  ],
};
