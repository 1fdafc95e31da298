// What a run measures, from its options (options/table/targets.js): URLs, a running app
// (--target) or the stores in this process (--direct), what sends the requests, which stores and
// keys, and the --assert thresholds that name a store none of these measures. Problems pushed.
import { HTTP_ENGINE_NAMES } from '../config/run-defaults.js';
import { unmeasuredStoreProblems } from '../config/thresholds.js';
import { targetFromUrl } from '../util/url-target.js';
import { defaultOf } from './table.js';

function httpUrl(text) {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** { urls, target, direct, engine, engineChoice, keepAlive }: --url, --target, --direct, --engine, --no-keepalive. */
export function targetOptions({ text }, values, problems) {
  const urls = [].concat(values.url ?? []).filter((value) => typeof value === 'string');
  for (const url of urls) if (!httpUrl(url)) problems.push(`--url "${url}" is not an http:// or https:// URL`);
  const target = text('target');
  if (target !== undefined && !httpUrl(target)) problems.push(`--target "${target}" is not an http:// or https:// URL`);
  if (urls.length && target !== undefined) problems.push('use either --url or --target, not both');
  const direct = values.direct === true;
  if (direct && urls.length) {
    problems.push('--direct calls the stores in this process: it takes no --url (choose stores with --stores)');
  }
  if (direct && target !== undefined) {
    problems.push('--direct calls the stores in this process: it takes no --target (choose stores with --stores)');
  }
  const engine = text('engine') ?? defaultOf('engine');
  if (!HTTP_ENGINE_NAMES.includes(engine)) {
    problems.push(`--engine must be ${HTTP_ENGINE_NAMES.join(' or ')}, not "${engine}"`);
  } else if (direct && text('engine') !== undefined) {
    problems.push('--engine chooses what sends HTTP requests: ' +
      '--direct sends none (it calls the stores in this process)');
  }
  if (direct && values.noKeepalive) {
    problems.push('--no-keepalive is about HTTP connections: ' +
      '--direct makes none (each store keeps its client\'s own connections)');
  }
  // Why: the System line and settings.engineChoice say whether --engine (or run()'s `engine`) named it.
  const engineChoice = text('engine') === undefined ? 'default' : 'option';
  return { urls, target, direct, engine, engineChoice, keepAlive: !values.noKeepalive };
}

/** { stores, keys } as given (undefined when not): each a choice from a /stores listing. */
export function chosenStores(values, problems, { urls }) {
  const { stores, keys } = values;
  if (stores && !stores.length) problems.push('--stores needs at least one store name');
  if (keys && !keys.length) problems.push('--keys needs at least one key');
  if (urls.length && (stores || keys)) {
    problems.push('--stores and --keys choose from a /stores listing; with --url, list the URLs you want');
  }
  return { stores, keys };
}

/** A problem for each --assert threshold naming a store the run will not measure, found before app.js starts. */
export function unmeasuredProblems({ assert, stores, urls, keySpace, workload }) {
  const problems = [];
  if (stores?.length) problems.push(...unmeasuredStoreProblems(assert, stores, { source: '--stores' }));
  const urlStore = (url) => targetFromUrl(url, keySpace ? workload.name : null).store;
  if (urls.length) {
    const urlStores = urls.filter(httpUrl).map(urlStore);
    problems.push(...unmeasuredStoreProblems(assert, urlStores, { source: 'the --url list' }));
  }
  return problems;
}
