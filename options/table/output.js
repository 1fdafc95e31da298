// node test's options about what a run leaves: its output (JSON, CSV, the terminal, the saved
// run) and its reports (HTML, repeats, thresholds, HdrHistogram logs, Prometheus).
// options/table.js assembles them.
import { REPEAT_LIMIT } from '../defaults.js';

export const OUTPUT_OPTIONS = [
  {
    flag: 'json',
    type: 'string',
    arg: 'FILE',
    setting: null,
    section: 'output',
    help: [
      'write settings, system info and every step (with histograms) as JSON;',
      '"-" writes it to stdout and the tables to stderr',
    ],
    doc: 'Write the run as a `storebench-results/6` JSON file: settings (the workload\'s too), system info, ' +
      'the targets, the skipped stores, each store\'s load phase, every step (with its start and finish ' +
      'time, repeat, p99.9, the machine\'s load, warnings by code, the encoded HDR histogram, and the ' +
      'same per operation), the verifications and the comparison; every field is described in ' +
      '[docs/results-format.md](results-format.md) and in a JSON Schema, ' +
      '[docs/results.schema.json](results.schema.json). `--json -` writes it to stdout and the ' +
      'tables to stderr. Checked before any load: a path that cannot be written exits 2 at once.',
  },
  {
    flag: 'csv',
    type: 'string',
    arg: 'FILE',
    setting: null,
    section: 'output',
    help: ['write one CSV row per step'],
    doc: 'One CSV row per step, with the same figures under the table\'s column names (and, for a workload ' +
      'of several operations, a row per operation); the last column, `interrupted`, is `true` on every ' +
      'row of a run stopped early. Checked before any load, as `--json`.',
  },
  {
    flag: 'quiet',
    short: 'q',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: [
      'no progress line and no "starting app.js" line (the progress line is',
      'also off when stderr is not a terminal)',
    ],
    doc: 'No progress line and no "starting app.js" line (the progress line is also off when stderr is not ' +
      'a terminal).',
  },
  {
    flag: 'verbose',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: [
      'under each table also its legends, machine warnings, the evidence of each',
      "step's bottleneck and its seconds as sparklines; the comparison with a",
      'row per store and level (node test report FILE --verbose: a saved run)',
    ],
    docDefault: 'off',
    doc: 'Print everything the run knows: under each URL\'s table its legends, the machine\'s warnings, one ' +
      'line per step with the evidence of its bottleneck and each tier\'s CPU per response, and its seconds ' +
      'as sparklines; the comparison as a row per store and level, with latency, `rps/fastest` and a note ' +
      'per shared rank. Without it each table keeps the bottleneck in a word, the legends come once and the ' +
      'comparison has a row per store (see [docs/reports.md](reports.md)). `node test report FILE --verbose` ' +
      'prints a saved run this way.',
  },
  {
    flag: 'no-save',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: [
      'do not keep the run: by default its results JSON and HTML page go to',
      './storebench-results/<UTC time>-<id>/ ($STOREBENCH_RESULTS_DIR), named',
      'in the last line',
    ],
    docDefault: 'saved',
    doc: 'Do not keep the run. By default every sweep writes its `results.json` and `report.html` to a ' +
      'folder of its own, `./storebench-results/<UTC time>-<id>/` (or under `$STOREBENCH_RESULTS_DIR`), ' +
      'and names it in its last line; an interrupted or failed run is kept too, marked as such (its folder ' +
      'ends in `-interrupted` or `-failed`). A folder that cannot be written is a one-line warning: the run ' +
      'prints and exits as it would have. `--json`/`--html` still write where they are told. ' +
      '`node test runs` lists the saved runs, `node test compare` with no files compares the last two (see ' +
      '[docs/reports.md](reports.md#every-run-kept)).',
  },
  {
    flag: 'help',
    short: 'h',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: ['show this help'],
    doc: 'Usage.',
  },
  {
    flag: 'html',
    type: 'string',
    arg: 'FILE',
    setting: null,
    section: 'reports',
    help: [
      'also write the run as one self-contained HTML page (charts, tables, no',
      'network); made from the saved Result, as node test report --html makes it',
    ],
    doc: 'Also write the run as one self-contained HTML page (see [The HTML report](reports.md#the-html-report)), ' +
      'made from the saved Result. Checked before any load, as `--json`.',
  },
  {
    flag: 'repeat',
    type: 'string',
    number: true,
    arg: 'N',
    bounds: [1, REPEAT_LIMIT],
    default: 1,
    setting: 'repeat',
    section: 'reports',
    help: [
      `run each step N times, 1 to ${REPEAT_LIMIT} (default 1), interleaved across the URLs`,
      'at each load level; tables show the median, the min-max and, from 5',
      'repeats, the 95% interval of the mean',
    ],
    docDefault: '`1`',
    doc: 'Run each step N times (1 to 100), interleaved across the URLs at each load level (A B C, A B C), ' +
      'so a slow moment of a shared machine falls on all of them. Tables show the median, the min-max ' +
      'and, from 5 repeats, the 95% interval of the mean of rps, mean latency and p99; the comparison ' +
      'says which stores\' rps ranges overlap ("not distinguishable here"). Every repeat\'s step is in ' +
      'the JSON. See [docs/measurement.md](measurement.md#repeats---repeat-n).',
  },
  {
    flag: 'assert',
    type: 'string',
    arg: 'EXPR',
    multiple: true,
    setting: 'assert',
    section: 'reports',
    help: [
      'a threshold, checked per store after the run (repeatable):',
      '[store:]p50|p90|p99|p999|mean|max <|<= N ms|us, rps >|>= N,',
      "errors =|<= N or N%  (e.g. 'p99<5ms', 'redis:rps>=1000', 'errors=0');",
      'a missed one exits 3; one naming a store the run will not sweep',
      'exits 2 before any load',
    ],
    doc: 'A threshold, repeatable: `[store:]p50|p90|p99|p999|mean|max <|<= N ms|us`, `rps >|>= N`, `errors ' +
      '=|<= N` or `N%` (`\'p99<5ms\'`, `\'redis:rps>=1000\'`, `\'errors<=0.1%\'`). After the run a table ' +
      'shows each threshold per store, checked against every step of that store (with repeats, the ' +
      'medians the tables show; errors summed over them): `pass`, or `FAIL` with the worst step. A ' +
      'missed threshold exits **3**; a bad expression, or one naming a store the run will not sweep ' +
      '(not in `--stores` or the `--url` list, or not up in `/stores`), exits **2** before any load.',
  },
  {
    flag: 'hdr-log',
    type: 'string',
    arg: 'DIR',
    setting: null,
    section: 'reports',
    help: [
      "also write each target's seconds as HdrHistogram interval logs, one",
      'file per target and operation (<store>-<key>-<operation>.hlog, values',
      'in µs), for HistogramLogProcessor and the HdrHistogram plotter',
    ],
    doc: 'Also write each target\'s seconds as HdrHistogram interval logs (log format 1.3), one file per ' +
      'target and operation, `DIR/<store>-<key>-<operation>.hlog` (a second URL with the same store and ' +
      'key, on another host say, `<store>-<key>-2-<operation>.hlog`; made if missing; a file there ' +
      'exits **2** before any load): one interval a second, values in µs, start times from the run\'s ' +
      'first step. HdrHistogram\'s `HistogramLogProcessor` (with `-outputValueUnitRatio 1000` for ms) ' +
      'and plotter read them; see ' +
      '[docs/measurement.md](measurement.md#second-by-second-the-timeline).',
  },
  {
    flag: 'metrics-port',
    type: 'string',
    number: true,
    arg: 'N',
    bounds: [0, 65535],
    setting: null,
    section: 'reports',
    help: [
      "serve the run's requests, errors, latency histograms and machine figures",
      'in Prometheus text on 127.0.0.1:N/metrics while it runs (0: a free port,',
      'printed); after the run, waits up to 5 s for one last scrape',
      '(docs/observability.md)',
    ],
    doc: 'Serve the run\'s figures in Prometheus text at `http://127.0.0.1:N/metrics` while it runs (`0`: a ' +
      'free port, printed on stderr): requests, errors by kind and a latency histogram per target, ' +
      'operation and step, added as each step ends, and the last step\'s steal and busy figures. After ' +
      'the run the driver waits up to 5 s for one last scrape. See ' +
      '[docs/observability.md](observability.md).',
  },
];
