// npm run load:cf -- --parts N <driver flags>: N cf run-task parts of one run against the pushed
// app, their results merged and printed (scripts/cf/load-parts.js).
import { captureCf, CfScriptError, requireCf, runScript } from './cf.js';
import {
  LOAD_USAGE, collectResults, loadToken, mergeCollected, newRunId, parseLoadArguments, routeOf, taskCommand,
} from './load-parts.js';
import { checkOutputPaths } from '../../cli/results-files.js';
import { printMerged } from '../../cli/report-commands.js';
import { parseThresholds } from '../../config/thresholds.js';
import { thresholdsError } from '../../report/assert.js';
import { checkThresholds } from '../../result/threshold-check.js';
import { StorebenchError, exitCodeOf } from '../../util/errors.js';
import { redactText } from '../../util/redact.js';

await runScript('load:cf', async (argv) => {
  const { help, options, problems } = parseLoadArguments(argv);
  if (help) {
    console.log(LOAD_USAGE);
    return 0;
  }
  if (problems.length) throw new CfScriptError(problems.join('\n'), 2);
  try {
    await checkOutputPaths(options);
    const cf = requireCf();
    const token = loadToken();
    if (!token) {
      throw new CfScriptError('no write token: set STOREBENCH_WRITE_TOKEN, or keep it in vars.yml / ' +
        'vars.write-token.yml ' +
        '(npm run push makes one)');
    }
    const url = routeOf(captureCf(cf, ['app', options.app]));
    const guid = captureCf(cf, ['app', options.app, '--guid']).trim();
    const run = newRunId();
    const say = (line) => { if (!options.quiet) process.stderr.write(`${line}\n`); };
    const against = options.ownTarget ? 'the --target/--url given' : url;
    say(`${options.parts} tasks of ${options.app} against ${against}, starting at ${options.startAt.toISOString()} ` +
      `(run ${run})`);
    for (let index = 1; index <= options.parts; index += 1) {
      const command = taskCommand({ ...options, index, target: options.ownTarget ? null : url, url, run, guid });
      captureCf(cf, [
        'run-task', options.app, '--command', command, '--name', `storebench-${run}-${index}`,
        ...(options.memory ? ['-m', options.memory] : []), ...(options.disk ? ['-k', options.disk] : []),
      ]);
      say(`  part ${index} of ${options.parts}: task storebench-${run}-${index} submitted`);
    }
    if (Date.now() > options.startAt.getTime()) {
      say('warning: the tasks were submitted after --start-at: they will stop as not ready (NOT_READY); ' +
        'give a later --start-at');
    }
    const deadline = options.startAt.getTime() + options.wait * 1000;
    const collected = await collectResults({ url, run, parts: options.parts, guid, token, deadline, log: say });
    const result = mergeCollected(collected, options);
    await printMerged(result, options);
    const missed = thresholdsError(checkThresholds(result, parseThresholds(options.assert).thresholds));
    if (missed) throw missed;
    return 0;
  } catch (error) {
    if (!(error instanceof StorebenchError)) throw error;
    throw new CfScriptError(redactText(error.message), exitCodeOf(error));
  }
});
