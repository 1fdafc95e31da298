// `node test --workload list`: the workloads of config/workloads.js as a table,
// then the distributions and the operations they use.
import { DISTRIBUTIONS, MIXED, OPERATIONS, WORKLOADS } from '../config/workloads.js';
import { renderTable } from '../report/table.js';

const share = (value) => `${Number((value * 100).toFixed(2))}%`;

export function renderWorkloadList() {
  const rows = Object.entries(WORKLOADS).map(([name, workload]) => [
    name,
    workload.unsupported
      ? '-'
      : Object.entries(workload.mix).map(([operation, value]) => `${operation} ${share(value)}`).join(', '),
    workload.unsupported ? '-' : workload.distribution ?? 'new keys',
    workload.unsupported ? '-' : workload.load ? 'yes' : 'no',
    workload.about,
  ]);
  rows.splice(5, 0, [MIXED.name, 'read R%, update W%', MIXED.distribution, MIXED.load ? 'yes' : 'no', MIXED.about]);
  const headers = ['workload', 'operations', 'distribution', 'loads first', 'what it is'];
  return [
    'Workloads (--workload NAME; the distribution is the default --distribution overrides):',
    renderTable(headers, rows, { align: headers.map(() => 'left') }),
    '',
    'Distributions (--distribution NAME):',
    ...Object.entries(DISTRIBUTIONS).map(([name, about]) => `  ${name.padEnd(11)} ${about}`),
    '',
    'Operations, each reported apart:',
    ...Object.entries(OPERATIONS).map(([name, { request, about }]) => `  ${name.padEnd(18)} ${request}: ${about}`),
    '',
    'Without --records, read is the seeded key1..key3 of every store (the default run).',
    'docs/workloads.md has the definitions, the load phase and the verification.',
  ].join('\n');
}
