// node test's options for one run split over several drivers (docs/merge.md).
// options/table.js assembles them.

export const PARTS_OPTIONS = [
  {
    flag: 'start-at',
    type: 'string',
    arg: 'TIME',
    setting: 'startAt',
    section: 'parts',
    help: [
      'prepare (target reachable, priming, load phase), then wait until TIME',
      '(ISO with zone, 2025-06-01T12:00:00Z, or +SECS from now) before the',
      'first step; not ready by then: exit 1. Records its start and clock',
    ],
    doc: 'Prepare (target reachable, priming, load phase), then wait until TIME (ISO with zone, or ' +
      '`+SECS`) before the first step; each step\'s steady warm-up runs after it. Ready too late: exit ' +
      '**1** (`NOT_READY`). The Result\'s `start` keeps the start and the target\'s clock from its `Date` ' +
      'header ([docs/merge.md](merge.md#one-run-split-over-several-drivers---part---start-at' +
      '---parts-n---local-node-test-k8s)).',
  },
  {
    flag: 'part',
    type: 'string',
    arg: 'I/N',
    setting: 'part',
    section: 'parts',
    help: [
      'this driver is part I of N: its share of -c, --rps and -n, loads and',
      'inserts only its slice of --records, its own seed drawn from --seed',
      '(needed: the same for every part, as is the order of the steps)',
    ],
    doc: 'This driver is part I of N of one run (needs `--seed`, the same in every part): its share of ' +
      'each `-c`, `--rps` and `-n`, its slice of `--records` to load and its own insert keys, its own ' +
      'seed drawn from the run\'s, the run\'s order of steps. `merge` checks parts 1..N are all there and ' +
      'none twice.',
  },
  {
    flag: 'parts',
    type: 'string',
    number: true,
    arg: 'N',
    setting: null,
    section: 'parts',
    label: '--parts N --local',
    help: [
      'start N parts here as processes, one --start-at (default +10s), then',
      'merge them and print the merged run (--json/--csv/--html write it)',
    ],
    doc: 'Start N parts on this machine as processes, with one app.js (unless ' +
      '`--target`/`--url`/`--direct`), one `--start-at` (default `+10s`) and one seed; merge them, ' +
      'print the merged run, write `--json`/`--csv`/`--html`.',
  },
  {
    flag: 'local',
    type: 'boolean',
    setting: null,
    section: 'parts',
    label: null,
    help: ['with --parts N: start the N parts on this machine'],
  },
];
