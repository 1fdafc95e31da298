// What the `npm run login / service_create / service_delete / push / page / vcap_services`
// scripts share: their settings, the cf command lines they build (pure, tested) and how they
// run cf. The settings (CF_API, CF_APP, CF_VARS_FILE, CLOUDANT_OFFERING, ...; scope cf-scripts)
// are declared in config/settings.js and answered by its one rule: an environment variable,
// else the vars file (vars.yml: app_name, route, cloudant_service, redis_service, ...), else
// the default.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { which } from '../../util/which.js';
import { maskCredentials } from '../../util/redact.js';
import { resolveSetting } from '../../config/precedence.js';
import { settings } from '../../config/settings.js';
import { SettingValueError } from '../../config/setting-values.js';

/** A problem the user can fix; the script prints it and exits 1 (2 for bad arguments). */
export class CfScriptError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.name = 'CfScriptError';
    this.exitCode = exitCode;
  }
}

// The service instances the manifest binds, each named by settings of config/settings.js.
const offerings = {
  cloudant: {
    offering: 'cloudantOffering',
    plan: 'cloudantServicePlan',
    params: 'cloudantServiceParams',
    instance: 'cloudantService',
  },
  redis: { offering: 'redisOffering', plan: 'redisPlan', params: 'redisServiceParams', instance: 'redisService' },
};

/** The full path of cf, or a CfScriptError saying how to get it. */
export function requireCf(env = process.env) {
  const cf = which(process.platform === 'win32' ? 'cf.exe' : 'cf', env.PATH ?? '');
  if (!cf) {
    throw new CfScriptError('the Cloud Foundry CLI (cf) is not on PATH; install the cf CLI v8 ' +
      '(https://github.com/cloudfoundry/cli) and run this again');
  }
  return cf;
}

/** Reads a flat YAML vars file (`name: value` lines, as cf push --vars-file takes). */
export function parseVars(text, file = 'vars file') {
  const vars = {};
  text.split(/\r?\n/).forEach((line, index) => {
    if (/^\s*(#.*)?$/.test(line) || /^---\s*$/.test(line)) return;
    const match = /^([A-Za-z_][\w.-]*)\s*:\s*(.*)$/.exec(line);
    if (!match) {
      throw new CfScriptError(`${file} line ${index + 1}: expected "name: value" (only flat variables are supported)`);
    }
    let value = match[2].trim();
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    vars[match[1]] = value;
  });
  return vars;
}

/** The ((variables)) a manifest uses, in order of first use. */
export function manifestVariables(text) {
  return [...new Set([...text.matchAll(/\(\(([\w.-]+)\)\)/g)].map((match) => match[1]))];
}

/** The vars file's path and variables; a CfScriptError naming what to do when it is missing. */
export function loadVars(env = process.env, cwd = process.cwd()) {
  const file = optionalSetting({ env }, 'cfVarsFile');
  let text;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    throw new CfScriptError(`${file} not found: copy vars.example.yml to ${file} and set your names ` +
      '(or set CF_VARS_FILE)');
  }
  return { file, vars: parseVars(text, file) };
}

/** Setting key (config/settings.js) from context's env and vars file, or undefined; a CfScriptError when malformed. */
export function optionalSetting({ vars, env = process.env }, key) {
  const { value, problem } = resolveSetting(key, { env, vars });
  if (problem) throw new CfScriptError(problem);
  return value;
}

/** Setting key, or a CfScriptError saying where to set it. */
export function setting(context, key) {
  const value = optionalSetting(context, key);
  if (value !== undefined) return value;
  const { varsFile, env } = settings[key];
  const alternatives = env.length ? ` or set ${env.join(' or ')}` : '';
  throw new CfScriptError(varsFile
    ? `${varsFile} is not set: add "${varsFile}: ..." to ${context.file ?? 'vars.yml'}${alternatives}`
    : `${env.join(' or ')} is not set`);
}

export function loginArgs(env = process.env) {
  const api = optionalSetting({ env }, 'cfApi');
  if (!api) throw new CfScriptError('CF_API is not set: export CF_API=https://api.<your platform> (cf login -a needs it)');
  const org = optionalSetting({ env }, 'cfOrg');
  const space = optionalSetting({ env }, 'cfSpace');
  return ['login', '-a', api, ...(org ? ['-o', org] : []), ...(space ? ['-s', space] : [])];
}

/** The stores a service_create/service_delete run is about: all, or those named in argv. */
export function chosenServices(argv) {
  const unknown = argv.filter((name) => !offerings[name]);
  if (unknown.length) {
    throw new CfScriptError(`unknown service ${unknown.join(', ')} (known: ${Object.keys(offerings).join(', ')})`, 2);
  }
  return argv.length ? argv : Object.keys(offerings);
}

export function createServiceArgs(kind, context) {
  const spec = offerings[kind];
  const args = [
    'create-service', setting(context, spec.offering), setting(context, spec.plan), setting(context, spec.instance),
  ];
  const params = optionalSetting(context, spec.params); // checked to be JSON
  if (params) args.push('-c', params);
  return args;
}

export function deleteServiceArgs(kind, context) {
  return ['delete-service', setting(context, offerings[kind].instance), '-f'];
}

/**
 * cf push arguments; a CfScriptError when the vars files lack a variable the manifest uses.
 * vars: every variable the files give; varsFiles: files after file (the write token's).
 */
export function pushArgs({ vars, file, manifestText, manifest = 'manifest.yml', extra = [], varsFiles = [] }) {
  const missing = manifestVariables(manifestText).filter((name) => !vars[name]);
  if (missing.length) {
    throw new CfScriptError(`${file} does not set ${missing.join(', ')} (used by ${manifest}; see vars.example.yml)`);
  }
  const moreVarsFiles = varsFiles.flatMap((extraFile) => ['--vars-file', extraFile]);
  return ['push', '-f', manifest, '--vars-file', file, ...moreVarsFiles, ...extra];
}

/** Where push keeps a generated write token: beside the vars file (vars.yml -> vars.write-token.yml). */
export const writeTokenFile = (varsFile) => varsFile.replace(/(\.ya?ml)?$/i, '.write-token.yml');

/**
 * The write token the manifest's write_token variable takes (the app's STOREBENCH_WRITE_TOKEN):
 * the vars file's own, else the one kept in writeTokenFile(file), else a new random one kept
 * there (mode 600), so every push gives the app the same token. Never printed.
 * @returns {{ vars: { write_token }, file?: string, created: boolean }}  file: a vars file to pass too
 */
export function ensureWriteToken({ file, vars }) {
  const check = (token, where) => {
    try {
      settings.writeToken.parse(token);
    } catch (error) {
      if (error instanceof SettingValueError) throw new CfScriptError(`write_token in ${where} ${error.message}`);
      throw error;
    }
    return { write_token: token };
  };
  if (vars.write_token) return { vars: check(vars.write_token, file), created: false };
  const tokenFile = writeTokenFile(file);
  let text;
  try {
    text = readFileSync(resolve(tokenFile), 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    return { vars: check(parseVars(text, tokenFile).write_token ?? '', tokenFile), file: tokenFile, created: false };
  }
  const token = randomBytes(32).toString('base64url');
  const tokenText = '# The app\'s write token (STOREBENCH_WRITE_TOKEN), made by npm run push. Keep it secret.\n' +
    `write_token: ${token}\n`;
  writeFileSync(resolve(tokenFile), tokenText, { mode: 0o600, flag: 'wx' });
  return { vars: { write_token: token }, file: tokenFile, created: true };
}

/** The app's public URL: STOREBENCH_URL, else https://<route from CF_ROUTE or the vars file>. */
export function appUrl(context) {
  const url = optionalSetting(context, 'appUrl');
  if (url) return url;
  const route = setting(context, 'cfRoute');
  return /^https?:\/\//.test(route) ? route : `https://${route}`;
}

/** The command that opens a URL in the desktop's browser, for platform. */
export function browserCommand(platform, url) {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** VCAP_SERVICES out of `cf curl /v3/apps/GUID/env` output. */
export function vcapServicesFromAppEnv(text) {
  let body;
  try { body = JSON.parse(text); } catch { throw new CfScriptError('cf curl did not return JSON'); }
  if (body.errors?.length) {
    throw new CfScriptError(`the platform said: ${body.errors.map((error) => error.detail ?? error.title).join('; ')}`);
  }
  return body.system_env_json?.VCAP_SERVICES ?? {};
}

/** Runs cf with args, its output on our terminal; resolves to its exit code. */
export function runCf(cf, args) {
  // service parameters (-c JSON) may hold credentials: echo them masked
  const shown = args.map((arg, index) =>
    (args[index - 1] === '-c' ? JSON.stringify(maskCredentials(JSON.parse(arg))) : arg));
  console.error(`$ cf ${shown.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg}'`)).join(' ')}`);
  const result = spawnSync(cf, args, { stdio: 'inherit' });
  if (result.error) throw new CfScriptError(`cannot run cf: ${result.error.message}`);
  return result.status ?? 1;
}

/** Runs cf with args and returns its stdout; a CfScriptError with its stderr when it fails. */
export function captureCf(cf, args) {
  const result = spawnSync(cf, args, { encoding: 'utf8', stdio: ['inherit', 'pipe', 'pipe'] });
  if (result.error) throw new CfScriptError(`cannot run cf: ${result.error.message}`);
  if (result.status !== 0) {
    throw new CfScriptError(`cf ${args[0]} failed: ${(result.stderr || result.stdout).trim().split('\n').pop()}`);
  }
  return result.stdout;
}

/** Runs every check and returns their results; throws one CfScriptError listing every problem. */
export function checkAll(...checks) {
  const problems = [];
  const results = checks.map((check) => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof CfScriptError)) throw error;
      problems.push(error);
      return undefined;
    }
  });
  if (problems.length) {
    const exitCode = Math.max(...problems.map((problem) => problem.exitCode));
    throw new CfScriptError(problems.map((problem) => problem.message).join('\n'), exitCode);
  }
  return results;
}

/** The shell of every script: run main, turn a CfScriptError into its messages and exit code. */
export async function runScript(name, main) {
  try {
    process.exitCode = (await main(process.argv.slice(2))) ?? 0;
  } catch (error) {
    if (!(error instanceof CfScriptError)) throw error;
    for (const line of error.message.split('\n')) console.error(`npm run ${name}: ${line}`);
    process.exitCode = error.exitCode;
  }
}
