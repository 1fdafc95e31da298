// The app's command line: flags -> explicit settings, every problem collected at once, and the
// usage text written from the settings table so it lists every setting the app reads.
import { parseFlags } from '../util/flags.js';
import { resolveSettings } from '../config/precedence.js';
import { settings, storeNamingSettings } from '../config/settings.js';
import { storesNamed } from '../config/setting-values.js';
import { deadlineProblems } from '../app/http-server.js';
import { storeNames } from '../stores/index.js';
import { unknownStoreProblems } from '../config/store-names.js';

// app.js's flags: the settings table's own (config/settings.js), one entry each: '--port N' is a
// flag that takes a value, '--metrics' a switch that turns its setting on, '--no-embedded' off.
const FLAGS = Object.entries(settings)
  .filter(([, setting]) => setting.flag)
  .map(([key, setting]) => {
    const [flag, value] = setting.flag.split(' ');
    const name = flag.slice(2);
    return { key, name, value: Boolean(value), negated: !value && name.startsWith('no-') };
  });
const spec = {
  ...Object.fromEntries(FLAGS.map(({ name, value }) => [name, { type: value ? 'string' : 'boolean' }])),
  help: { type: 'boolean', short: 'h' },
};

/**
 * Parses argv and checks the settings it and env give.
 * @returns {{ help: boolean, options: object, problems: string[] }}
 */
export function parseAppArgs(argv, env = process.env) {
  const { values, problems } = parseFlags(argv, spec);
  const options = {};
  for (const { key, name, value, negated } of FLAGS) {
    const given = values[name];
    if (value ? typeof given === 'string' : given === true) options[key] = value ? given : !negated;
  }
  // The store settings are checked here too, so one run reports every problem.
  const resolved = resolveSettings({ options, env }, ['app', 'http', 'writes', 'store']);
  problems.push(
    ...resolved.problems,
    ...deadlineProblems(resolved.settings),
    ...unknownStoreProblems(resolved.settings.stores),
    ...storeNamingSettings().flatMap(([key, flag]) => unknownStoreProblems(storesNamed(resolved.settings[key]), flag)),
  );
  return { help: values.help === true, options, problems };
}

const WIDTH = 100;

/** text folded into lines of at most WIDTH, the first after `first`, the rest indented to match. */
function wrap(first, text) {
  const indent = ' '.repeat(first.length);
  const lines = [];
  let line = first;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > WIDTH && line.trim().length) {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

const row = (name, width, text) => {
  const label = `  ${name}`;
  return label.length >= width ? `${label}\n${wrap(' '.repeat(width), text)}` : wrap(label.padEnd(width), text);
};

/** "else PORT, else on Cloud Foundry ..., else 3000": the tiers after the option. */
function fallbacks(setting) {
  const tiers = [];
  if (setting.env.length) tiers.push(setting.env.join(' or '));
  if (setting.cfText) tiers.push(`on Cloud Foundry ${setting.cfText}`);
  const fallback = setting.defaultText ?? (setting.default === undefined ? undefined : String(setting.default));
  if (fallback) tiers.push(fallback);
  return tiers.map((tier) => `else ${tier}`).join(', ');
}

const settingsOf = (scope) => Object.values(settings).filter((setting) => setting.scope === scope);

function optionLines() {
  const lines = settingsOf('app').map((setting) => {
    if (setting === settings.stores) {
      return row(setting.flag, 19, `${setting.about} (default: all: ${storeNames.join(', ')})`);
    }
    if (setting === settings.embedded) return row(setting.flag, 19, setting.about);
    return row(setting.flag, 19, `${setting.about}; ${fallbacks(setting)}`);
  });
  return [...lines, row('-h, --help', 19, 'show this help')].join('\n');
}

function writeLines() {
  return settingsOf('writes')
    .map((setting) => {
      const text = `${setting.about}${setting.flag ? `; ${fallbacks(setting)}` : ''}`;
      return row(setting.flag ?? setting.env.join(', '), 32, text);
    })
    .join('\n');
}

function environmentLines(scope) {
  return settingsOf(scope)
    .map((setting) => {
      const text = `${setting.about}${setting.default === undefined ? '' : ` (default ${setting.default})`}`;
      return row([setting.flag, ...setting.env].filter(Boolean).join(', '), 32, text);
    })
    .join('\n');
}

export const usage = `Usage: node app.js [options]      (installed: storebench-app [options])

Serves GET /<store>/<key> for the benchmark driver, plus / (index page), /stores and /healthz,
and the write routes: PUT and DELETE /<store>/<key>, POST /<store>/<key>/append, POST /<store>.
Each setting comes from its option, else its environment variable, else Cloud Foundry, else
its default.

Options:
${optionLines()}

Deadlines for slow clients (each answered 408 REQUEST_TIMEOUT, its connection closed):
${environmentLines('http')}

Writes (allowed without a token only while the app listens on loopback):
${writeLines()}

Where each store's server is (else a service bound on Cloud Foundry, matched by label, tag or
name; else the embedded default starts one here, unless --no-embedded):
${environmentLines('service')}

How the stores use their servers:
${environmentLines('store')}

Exit codes: 0 stopped cleanly, 1 cannot start (port in use, say), 2 bad flags or settings.
Every setting, and how Cloud Foundry bindings are matched: docs/configuration.md.`;

/**
 * Every flag of app.js with what it does and where its value comes from otherwise, one row each,
 * in the table's order: [flag, text] for docs/app.md (scripts/app-docs.js writes it).
 */
export function flagReference() {
  return FLAGS.map(({ key }) => {
    const setting = settings[key];
    if (setting === settings.stores) return [setting.flag, `${setting.about} (default: all)`];
    if (setting === settings.embedded) return [setting.flag, setting.about];
    return [setting.flag, `${setting.about}; ${fallbacks(setting)}`];
  });
}
