// docs/app.md's table of app.js's flags, made from the settings table (config/settings.js) by way of
// cli/app-options.js: npm run docs:app writes it between its markers, and
// test/unit/app-options.test.js checks that it is up to date.
import { readFile, writeFile } from 'node:fs/promises';
import { flagReference } from '../cli/app-options.js';
import { isMain } from '../util/is-main.js';

export const APP_DOC = new URL('../docs/app.md', import.meta.url);
const [START, END] = ['<!-- app-flags:start (npm run docs:app) -->', '<!-- app-flags:end -->'];

const cell = (text) => text.replaceAll('|', '\\|');

/** The flags' table as markdown. */
export function appFlagsTable() {
  return [
    '| option | meaning |',
    '| --- | --- |',
    ...flagReference().map(([flag, text]) => `| \`${flag}\` | ${cell(text)} |`),
    '| `-h`, `--help` | usage, with every environment variable the app reads |',
  ].join('\n');
}

/** docs/app.md with its flags' table made anew. */
export function withAppFlags(doc) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`docs/app.md has no ${START} ... ${END} block`);
  return `${doc.slice(0, start + START.length)}\n${appFlagsTable()}\n${doc.slice(end)}`;
}

if (isMain(import.meta.url)) await writeFile(APP_DOC, withAppFlags(await readFile(APP_DOC, 'utf8')));
