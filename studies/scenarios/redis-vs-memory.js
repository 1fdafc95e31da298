// Study 003: Redis vs an in-process memory cache, set and get of 1,000 / 10,000 / 100,000
// user objects, each under its own key all at once ("para") or all under one key ("once").
// Re-run here in direct mode on the memory store and on Redis through node-redis and ioredis.
// Their figures below are theirs, on their machine.
const COUNTS = [1_000, 10_000, 100_000];
const METHODS = ['set once', 'set para', 'get once', 'get para'];
// "Updated often": single-user updates to each read of every user, for split-when-large-and-hot
// (ours: the study gives no figure). A key each must win this mix to be "the better choice".
const UPDATES_PER_READ = 10;

// The study's table: its rows "redis <method>" and "cache <method>", columns 1,000 / 10,000 / 100,000.
const figures = {
  redis: [[5.422, 16.63, 109.812], [24.306, 179.134, 1146], [0.671, 3.027, 66.624], [15.523, 132.765, 1064]],
  'memory (cache)': [[0.763, 7.525, 98.416], [4.21, 45.129, 334.195], [0.017, 0.012, 0.023], [0.906, 0.726, 0.792]],
};
const publishedRows = Object.fromEntries(Object.entries(figures).flatMap(([store, lines]) => lines.map((line, i) => [
  `${store} ${METHODS[i]}`,
  Object.fromEntries(line.map((ms, j) => [`c${j + 1}`, ms])),
])));

export default {
  name: 'redis-vs-memory',
  title: 'Redis vs in-process memory: 1,000 to 100,000 user objects, a key each at once or all in one key',
  summary: 'study 003: set/get para and once of the study\'s user object, direct mode, memory vs redis and ioredis',
  study: {
    file: '003_95ef93f6db113e60.txt',
    source: 'the author\'s blog post of 2022-04-22 (no URL in the text)',
    author: 'Mitsuru Takahashi',
    hardware: 'not described; a Node.js (TypeScript) service calling its Redis service and an in-memory cache service',
    date: '2022-04-22',
  },
  kind: 'batch',
  stores: ['redis', 'ioredis', 'memory'],
  labels: { redis: 'redis', ioredis: 'ioredis', memory: 'memory (cache)' },
  // Said under every run's table: how this re-run differs from the study's code.
  notes: [
    'get para lists the keys first (KEYS user_* on Redis, the Map\'s keys in memory) and gets those, both timed, as ' +
      'the study\'s code did',
    'each set\'s JSON.stringify is inside the timing, as in the study\'s code; gets hand back the stored ' +
      'bytes unparsed, as the study\'s did',
    'the study\'s "cache get para" stays under 1 ms even for 100,000 users (under 10 ns a get, too fast for ' +
      '100,000 awaited gets): its key listing most likely found few keys, so that row says little',
    'ours, not the study\'s: the two update rows change one user (the middle one) in the one key holding all (read ' +
      'it, parse it, change the user, stringify all, write it back) and in its own key (the same for that user ' +
      `alone), all of it timed; split-when-large-and-hot weighs them ${UPDATES_PER_READ} to each read of every ` +
      'user (get once, or get para with its listing)',
    'the study does not name its Redis client (its setAsync/getAsync suggest a promisified node-redis); ours are ' +
      'node-redis (redis) and ioredis, on one redis-server',
  ],
  // For the published table's columns (studies/tables.js publishedTable).
  tables: [{
    id: 'methods',
    title: 'set and get of the users, each in its own key at once (para) or all in one key (once)',
    rowHeader: 'method',
    columns: COUNTS.map((count, i) =>
      ({ id: `c${i + 1}`, label: `${count.toLocaleString('en-US')} users`, unit: 'ms' })),
  }],
  scales: {
    tiny: {
      note: '10, 100 and 1,000 users instead of 1,000, 10,000 and 100,000, each timed twice: seconds, for tests',
      counts: [10, 100, 1_000],
      repeats: 2,
    },
    default: {
      note: 'the study\'s counts: 1,000, 10,000 and 100,000 users, each method timed 3 times (the median shown)',
      counts: COUNTS,
      repeats: 3,
    },
    full: { note: 'the same as default: the study\'s counts fit in memory here', counts: COUNTS, repeats: 3 },
  },
  published: [{
    id: 'methods',
    title: 'published: the study\'s console.time figures ("cache" is its in-memory cache; ' +
      'its Redis client is not named)',
    rows: publishedRows,
  }],
  conclusions: [
    {
      id: 'memory-faster',
      claim: 'the in-process cache is faster than Redis, having no network in between: every method, every count',
      uses: ['memory', 'redis', 'ioredis'],
      // Where the two tie (a set once of 1,000 users, the same JSON.stringify either way), Redis a
      // millisecond away must fall behind; no change can make an in-process Map the slower.
      counter: {
        change: 'both Redis clients 1 ms from their server (a Redis in the same data centre, not on loopback)',
        how: '--store-rtt redis=1,ioredis=1',
        system: { storeDelay: { rttMs: { stores: { redis: 1, ioredis: 1 } } } },
      },
      // The study's methods, set and get: the update rows are ours (split-when-large-and-hot),
      // and updating inside one big key is JSON work in this process whichever store holds it.
      check: {
        type: 'beats',
        table: 'methods',
        faster: 'memory (cache) ',
        slower: ['redis ', 'ioredis '],
        among: [' set ', ' get '],
      },
    },
    {
      id: 'once-faster',
      claim: 'for the same data, one key is faster than a key per user, for sets and for gets, on Redis and ' +
        'in memory, up to 100,000 users',
      uses: ['memory', 'redis', 'ioredis'],
      noCounter: 'a key each moves the same bytes as one key in n operations where one key takes one, and every ' +
        'cost a store or a network adds here is per operation or per byte, so no change of the system makes one ' +
        'key the slower (the in-process Map has no network to change at all)',
      check: { type: 'beats', table: 'methods', faster: ' once', slower: [' para'] },
    },
    {
      id: 'gap-narrows',
      claim: 'the more users, the smaller the time ratio between a key each and one key',
      uses: ['memory', 'redis', 'ioredis'],
      noCounter: 'the ratio can fall with the count only if one key\'s time grows faster than the data or a key ' +
        'each has a cost that does not grow; every cost a change of the system adds here is per operation (n for a ' +
        'key each, one for one key) or per byte (the same bytes either way), under which the ratio rises towards a ' +
        'level and never falls; the study\'s own figures fall only from 10,000 to 100,000 users',
      check: { type: 'ratio-shrinks', table: 'methods', numerator: ' para', denominator: ' once', in: 'most' },
    },
    {
      id: 'split-when-large-and-hot',
      claim: 'with large data updated often, a key each may be the better choice (judged as: at the largest count, ' +
        `on every store, reading every user once and changing one user ${UPDATES_PER_READ} times takes less time ` +
        'with a key each than with one key, each read and change timed whole)',
      uses: ['memory', 'redis', 'ioredis'],
      noCounter: 'a network or a slower store makes the one key\'s changes, which read and write every user, ' +
        'slower still, and a key each faster beside them; what can turn it is the workload (fewer changes to each ' +
        'read, or less data), not the system',
      check: {
        type: 'mix-beats',
        table: 'methods',
        faster: { ' get para': 1, ' update own key': UPDATES_PER_READ },
        slower: { ' get once': 1, ' update in one key': UPDATES_PER_READ },
      },
    },
  ],
};
