// node test's options for the published studies (--scenario and its knobs).
// options/table.js assembles them.

export const SCENARIO_OPTIONS = [
  {
    flag: 'scenario',
    type: 'string',
    arg: 'NAME',
    setting: null,
    section: 'scenarios',
    help: [
      "run a study's scenario: its own stores, steps and workloads, then its",
      'table beside the published one and a verdict per conclusion',
      '(--scenario list: one line each). Goes with the flags below,',
      '--json, --csv, --html and -q only',
    ],
    doc: 'Re-run a published study ([docs/scenarios.md](scenarios.md)): its own stores, steps and ' +
      'workloads, then its table in the study\'s shape with the published figure beside each of ours ' +
      '(`ours | published`) and one verdict per conclusion (`holds here`, `does not hold here`, `set by ' +
      'the emulation`, `not proven here` where no counter-run can turn it, `not runnable here: ' +
      '<reason>`). `--scenario list` prints one line each. Goes ' +
      'only with `--scale`, `--cloudant-plan`, `--client-rtt`, `--client-bandwidth`, `--store-rtt`, ' +
      '`--store-jitter`, `--store-bandwidth`, `--counter`, `--verdicts`, `--json`, `--csv`, `--html` ' +
      'and `-q` (any other flag exits 2).',
  },
  {
    flag: 'scale',
    type: 'string',
    arg: 'S',
    default: 'default',
    setting: null,
    section: 'scenarios',
    help: [
      'tiny (seconds, for tests), default (at most 5 minutes on 2 cores) or',
      "full (the study's sizes where they fit; the scenario says what not)",
    ],
    docDefault: '`default`',
    doc: 'With `--scenario`: `tiny` (seconds, for tests), `default` (a few minutes on 2 cores: 25 s to ' +
      'about 9 min, cloudant-vs-redis the longest) or `full` (the study\'s sizes where they fit; the ' +
      'scenario says what it scaled down).',
  },
  {
    flag: 'cloudant-plan',
    type: 'string',
    arg: 'P',
    setting: null,
    section: 'scenarios',
    help: [
      "lite: the embedded CouchDB stand-in enforces Cloudant Lite's 20 lookups/s,",
      '10 writes/s, 5 queries/s (429 beyond, retried after 0.5 s by the',
      "CouchDB stores); none: no limits. Default: the scenario's",
      '(cloudant-vs-redis: lite)',
    ],
    docDefault: 'the scenario\'s',
    doc: 'With `--scenario`: `lite` makes the embedded CouchDB stand-in enforce Cloudant Lite\'s 20 ' +
      'lookups/s, 10 writes/s and 5 queries/s (`429` beyond, retried after 0.5 s by the CouchDB stores, ' +
      'counted per step); `none` turns it off. `cloudant-vs-redis` runs with `lite`. For the app: `node ' +
      'app.js --cloudant-plan lite` or `STOREBENCH_CLOUDANT_PLAN=lite`.',
  },
  {
    flag: 'client-rtt',
    type: 'string',
    number: true,
    arg: 'MS',
    setting: null,
    section: 'scenarios',
    help: [
      'a round trip of MS ms between the driver and the app (a new connection',
      'pays one more for its handshake), for the scenarios over HTTP. Default:',
      "the scenario's (cloudant-vs-redis: the study's 300, 0: none)",
    ],
  },
  {
    flag: 'client-bandwidth',
    type: 'string',
    number: true,
    arg: 'SIZE',
    setting: null,
    section: 'scenarios',
    help: [
      'bytes a second each way on each connection between the driver and the',
      "app (cloudant-vs-redis: the study's 325KB; 0: none)",
    ],
  },
  {
    flag: 'counter',
    type: 'boolean',
    setting: null,
    section: 'scenarios',
    help: [
      "after the run, each verdict's counter-run: the system changed so that",
      'its claim comes out the other way in fact; both outcomes side by side',
    ],
    docDefault: 'off',
    doc: 'With `--scenario`: after the run, each verdict\'s counter-run, the same scenario with the system ' +
      'changed so that its claim comes out the other way in fact (a store\'s own network, Cloudant ' +
      'without Lite\'s cap, a memory or CPU limit on a server the run started, ...), both outcomes side ' +
      'by side and in the results file ([docs/scenarios.md](scenarios.md#counter-runs)). ' +
      '`--verdicts ID,...` judges only those conclusions and runs only what they use.',
  },
  {
    flag: 'verdicts',
    type: 'string',
    arg: 'ID,...',
    setting: null,
    section: 'scenarios',
    help: ['judge only these conclusions, and run only what they use'],
  },
];
