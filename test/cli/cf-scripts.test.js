// The Cloud Foundry npm scripts: the cf command lines they build, and, run for real, their
// failures (no cf, no CF_API, no vars file) and, with a recording stand-in for cf (the real
// cf CLI is in neither Debian nor npm, so it cannot be installed here), what they run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  appUrl, browserCommand, chosenServices, createServiceArgs, deleteServiceArgs, ensureWriteToken, loginArgs,
  manifestVariables,
  parseVars, pushArgs, vcapServicesFromAppEnv, writeTokenFile, CfScriptError,
} from '../../scripts/cf/cf.js';
import { which } from '../../util/which.js';
import { assertNoSecrets, fixtureSecrets, vcapFixture } from '../helpers/vcap-fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifestText = readFileSync(join(root, 'manifest.yml'), 'utf8');
const exampleVars = parseVars(readFileSync(join(root, 'vars.example.yml'), 'utf8'));
const context = (env = {}, vars = exampleVars) => ({ vars, env, file: 'vars.yml' });

test('the manifest is in today\'s schema and takes every name from a variable vars.example.yml sets', () => {
  assert.match(manifestText, /^\s+routes:\n\s+- route: \(\(route\)\)$/m);
  assert.doesNotMatch(manifestText, /^\s+(host|domain|hosts|domains|buildpack):/m); // removed/deprecated keys
  assert.match(manifestText, /^\s+health-check-type: http$/m);
  assert.match(manifestText, /^\s+health-check-http-endpoint: \/healthz$/m);
  assert.match(manifestText, /^\s+command: node app\.js\b/m); // node itself receives SIGTERM, not npm
  assert.match(manifestText, /^\s+buildpacks:\n\s+- nodejs_buildpack$/m);
  assert.deepEqual(manifestVariables(manifestText), [
    'app_name', 'memory', 'instances', 'write_token', 'route', 'cloudant_service', 'redis_service',
  ]);
  assert.match(manifestText, /^\s+env:\n(\s+#.*\n)*\s+STOREBENCH_WRITE_TOKEN: \(\(write_token\)\)$/m);
  assert.equal(exampleVars.write_token, undefined, 'the example leaves the token to npm run push');
  const withToken = { ...exampleVars, write_token: 'x'.repeat(32) };
  assert.deepEqual(pushArgs({ vars: withToken, file: 'vars.yml', manifestText }),
    ['push', '-f', 'manifest.yml', '--vars-file', 'vars.yml']);
  assert.deepEqual(pushArgs({ vars: withToken, file: 'vars.yml', manifestText, varsFiles: ['vars.write-token.yml'] }),
    ['push', '-f', 'manifest.yml', '--vars-file', 'vars.yml', '--vars-file', 'vars.write-token.yml']);
});

test('.cfignore keeps node_modules, results, tests, benchmarks, CI and the vars file out of the upload', () => {
  const ignored = readFileSync(join(root, '.cfignore'), 'utf8').split('\n');
  for (const entry of ['node_modules/', 'results/', 'test/', 'bench/', '.ci/', 'vars.yml']) {
    assert.ok(ignored.includes(entry), entry);
  }
  assert.ok(!ignored.some((line) => /^(data|lib|stores|routes)\b/.test(line)), 'the app\'s own files are uploaded');
});

test('push refuses a vars file that lacks a manifest variable, naming it', () => {
  const { route, ...withoutRoute } = { ...exampleVars, write_token: 'x'.repeat(32) };
  assert.ok(route);
  assert.throws(() => pushArgs({ vars: withoutRoute, file: 'mine.yml', manifestText }), /^CfScriptError: mine\.yml does not set route \(used by manifest\.yml/);
  const extra = ['--strategy', 'rolling'];
  assert.deepEqual(pushArgs({ vars: { ...withoutRoute, route }, file: 'v.yml', manifestText, extra }).slice(-2), extra);
});

test('the write token: the vars file\'s own, else one generated once beside it (mode 600) ' +
  'and kept for every later push', (t) => {
  const work = mkdtempSync(join(tmpdir(), 'storebench-token-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const file = join(work, 'vars.yml');
  assert.equal(writeTokenFile(file), join(work, 'vars.write-token.yml'));
  assert.equal(writeTokenFile('mine'), 'mine.write-token.yml');
  const own = 'My-Own-Write-Token-123456';
  assert.deepEqual(ensureWriteToken({ file, vars: { write_token: own } }),
    { vars: { write_token: own }, created: false });
  assert.throws(() => ensureWriteToken({ file, vars: { write_token: 'short' } }), /^CfScriptError: write_token in .*vars\.yml must be at least 16 characters/);

  const first = ensureWriteToken({ file, vars: {} });
  assert.equal(first.created, true);
  assert.equal(first.file, writeTokenFile(file));
  assert.match(first.vars.write_token, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  assert.equal(statSync(first.file).mode & 0o777, 0o600);
  assert.equal(parseVars(readFileSync(first.file, 'utf8')).write_token, first.vars.write_token);
  const second = ensureWriteToken({ file, vars: {} });
  assert.deepEqual(second, { ...first, created: false }, 'the same token at the next push');
});

test('parseVars reads flat vars files: quotes, comments; anything nested is a clear error', () => {
  assert.deepEqual(parseVars('---\n# c\na: 1\nb: "x # y"\nc: plain # note\nd: \'q\'\n'),
    { a: '1', b: 'x # y', c: 'plain', d: 'q' });
  assert.throws(() => parseVars('a:\n  - nested\n', 'v.yml'), /v\.yml line 2: expected "name: value"/);
});

test('login runs cf login -a $CF_API, with org and space when set', () => {
  assert.throws(() => loginArgs({}), CfScriptError);
  assert.deepEqual(loginArgs({ CF_API: 'https://api.example.com' }), ['login', '-a', 'https://api.example.com']);
  assert.deepEqual(loginArgs({ CF_API: 'https://api.x', CF_ORG: 'o', CF_SPACE: 's' }), ['login', '-a', 'https://api.x', '-o', 'o', '-s', 's']);
});

test('service_create uses IBM Cloudant lite and Redis Cloud 30mb unless the environment names others', () => {
  assert.deepEqual(createServiceArgs('cloudant', context()),
    ['create-service', 'cloudantnosqldb', 'lite', 'storebench-cloudant']);
  assert.deepEqual(createServiceArgs('redis', context()), ['create-service', 'rediscloud', '30mb', 'storebench-redis']);
  const env = {
    REDIS_OFFERING: 'p.redis', REDIS_PLAN: 'on-demand-cache', CLOUDANT_SERVICE_PARAMS: '{"legacyCredentials":false}',
  };
  assert.deepEqual(createServiceArgs('redis', context(env)),
    ['create-service', 'p.redis', 'on-demand-cache', 'storebench-redis']);
  assert.deepEqual(createServiceArgs('cloudant', context(env)).slice(-2), ['-c', '{"legacyCredentials":false}']);
  assert.throws(() => createServiceArgs('cloudant', context({ CLOUDANT_SERVICE_PARAMS: '{oops' })), /CLOUDANT_SERVICE_PARAMS is not valid JSON/);
  assert.throws(() => createServiceArgs('redis', context({}, {})), /redis_service is not set: add "redis_service: \.\.\." to vars\.yml/);
  assert.deepEqual(deleteServiceArgs('redis', context()), ['delete-service', 'storebench-redis', '-f']);
  assert.deepEqual(chosenServices([]), ['cloudant', 'redis']);
  assert.throws(() => chosenServices(['mongo']), (error) => error.exitCode === 2 && /unknown service mongo/.test(error.message));
});

test('page opens https://<route>, or STOREBENCH_URL, with the desktop\'s opener', () => {
  assert.equal(appUrl(context()), `https://${exampleVars.route}`);
  assert.equal(appUrl(context({ STOREBENCH_URL: 'https://b.example.com' })), 'https://b.example.com');
  assert.equal(appUrl(context({ CF_ROUTE: 'c.example.com' })), 'https://c.example.com', 'CF_ROUTE beats the vars file');
  assert.deepEqual(browserCommand('linux', 'https://a'), ['xdg-open', ['https://a']]);
  assert.deepEqual(browserCommand('darwin', 'https://a'), ['open', ['https://a']]);
  assert.deepEqual(browserCommand('win32', 'https://a'), ['cmd', ['/c', 'start', '""', 'https://a']]);
});

test('vcap_services reads VCAP_SERVICES from the v3 app env, and reports the platform\'s errors', () => {
  const vcap = vcapFixture('rediscloud');
  const appEnv = { system_env_json: { VCAP_SERVICES: vcap }, application_env_json: {} };
  assert.deepEqual(vcapServicesFromAppEnv(JSON.stringify(appEnv)), vcap);
  assert.throws(() => vcapServicesFromAppEnv('{"errors":[{"detail":"App not found","title":"CF-ResourceNotFound"}]}'), /the platform said: App not found/);
  assert.throws(() => vcapServicesFromAppEnv('<html>'), /did not return JSON/);
});

// Running the scripts for real ---------------------------------------------------------

/** A bin directory with node and sh, plus the given executables: nothing else (no cf). */
function binDir(t, executables = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'storebench-bin-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  symlinkSync(process.execPath, join(dir, 'node'));
  symlinkSync(which('sh'), join(dir, 'sh'));
  for (const [name, script] of Object.entries(executables)) {
    writeFileSync(join(dir, name), script);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function run(script, { path, env = {}, cwd = root, args = [] }) {
  const result = spawnSync(process.execPath, [join(root, 'scripts/cf', script), ...args], {
    cwd, encoding: 'utf8', env: { PATH: path, HOME: process.env.HOME, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A stand-in for cf that records its arguments and answers `app --guid` and `curl`. */
const recordingCf = (log, appEnvFile) => {
  const printFile = 'process.stdout.write(require(\'fs\').readFileSync(process.argv[1]))';
  return `#!/bin/sh
printf '%s\\n' "$*" >> '${log}'
case "$1" in
  app) echo 4b9a1f2e-0c3d-4e5f-8a6b-7c8d9e0f1a2b ;;
  curl) exec '${process.execPath}' -e "${printFile}" '${appEnvFile}' ;;
esac
`;
};

test('npm run <script> fails with a clear message and exit 1 when cf is not installed or a setting is missing', (t) => {
  const path = binDir(t);
  const npmCli = realpathSync(which('npm'));
  const cwd = mkdtempSync(join(tmpdir(), 'storebench-cwd-'));
  t.after(() => rmSync(cwd, { recursive: true, force: true }));
  for (const [script, expected] of [
    ['login', [/cf\) is not on PATH/, /CF_API is not set/]],
    ['service_create', [/cf\) is not on PATH/, /vars\.yml not found: copy vars\.example\.yml/]],
    ['service_delete', [/cf\) is not on PATH/, /vars\.yml not found/]],
    ['push', [/cf\) is not on PATH/, /vars\.yml not found/]],
    ['vcap_services', [/cf\) is not on PATH/, /vars\.yml not found/]],
    ['page', [/vars\.yml not found/]],
  ]) {
    // through npm, as a user runs them (package.json wires the names); vars looked up in a bare directory
    const result = spawnSync(process.execPath, [npmCli, 'run', '--silent', '--prefix', root, script], {
      cwd, encoding: 'utf8', env: { PATH: path, HOME: process.env.HOME, CF_VARS_FILE: join(cwd, 'vars.yml') },
    });
    assert.equal(result.status, 1, `${script}: ${result.stderr}`);
    for (const pattern of expected) {
      assert.match(result.stderr, new RegExp(`npm run ${script}: .*${pattern.source}`), script);
    }
  }
});

test('with cf on PATH the scripts run the cf commands built above', (t) => {
  const work = mkdtempSync(join(tmpdir(), 'storebench-cf-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const log = join(work, 'cf.log');
  const appEnvFile = join(work, 'env.json');
  const vcap = vcapFixture('cloudant-legacy-and-iam');
  writeFileSync(appEnvFile, JSON.stringify({ system_env_json: { VCAP_SERVICES: vcap } }));
  const path = binDir(t, { cf: recordingCf(log, appEnvFile) });
  const vars = join(work, 'vars.yml');
  writeFileSync(vars, readFileSync(join(root, 'vars.example.yml'), 'utf8').replace('storebench-redis', 'team-redis'));
  const params = '{"legacyCredentials":false,"password":"Param-Secret-987"}';
  const env = { CF_VARS_FILE: vars, CF_API: 'https://api.example.com', REDIS_PLAN: '100mb', CLOUDANT_SERVICE_PARAMS: params };

  for (const script of ['login.js', 'service-create.js', 'push.js', 'service-delete.js']) {
    const result = run(script, { path, env });
    assert.equal(result.code, 0, `${script}: ${result.stderr}`);
    assert.match(result.stderr, /^\$ cf /, 'echoes the command it runs');
    assert.ok(!result.stderr.includes('Param-Secret-987'), 'service parameters are echoed masked');
    if (script === 'push.js') {
      const token = parseVars(readFileSync(join(work, 'vars.write-token.yml'), 'utf8')).write_token;
      assert.ok(!`${result.stdout}${result.stderr}`.includes(token), 'the write token is never printed');
      assert.match(result.stderr, /writes to the app need its token, generated now and kept in .*vars\.write-token\.yml/);
    }
  }
  const shown = run('vcap-services.js', { path, env });
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(JSON.parse(shown.stdout).cloudantNoSQLDB[0].credentials.apikey, '***');
  assertNoSecrets(assert, shown.stdout + shown.stderr, fixtureSecrets(vcap), 'vcap_services');

  assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [
    'login -a https://api.example.com',
    `create-service cloudantnosqldb lite storebench-cloudant -c ${params}`,
    'create-service rediscloud 100mb team-redis',
    `push -f manifest.yml --vars-file ${vars} --vars-file ${join(work, 'vars.write-token.yml')}`,
    'delete-service storebench-cloudant -f',
    'delete-service team-redis -f',
    'app storebench --guid',
    'curl /v3/apps/4b9a1f2e-0c3d-4e5f-8a6b-7c8d9e0f1a2b/env',
  ]);
});

test('vcap_services inside an app container masks $VCAP_SERVICES without needing cf', (t) => {
  const vcap = vcapFixture('databases-for-redis');
  const result = run('vcap-services.js', { path: binDir(t), env: { VCAP_SERVICES: JSON.stringify(vcap) } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout)['databases-for-redis'][0].name, 'storebench-ibm-redis');
  assertNoSecrets(assert, result.stdout + result.stderr, fixtureSecrets(vcap), 'vcap_services');
  const broken = run('vcap-services.js', { path: binDir(t), env: { VCAP_SERVICES: '{"x": "Half-A-Secret-123' } });
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /VCAP_SERVICES is set but is not a JSON object/);
  assert.ok(!broken.stderr.includes('Half-A-Secret-123'));
});

test('page prints the URL and hands it to xdg-open; without one it just prints it', (t) => {
  const work = mkdtempSync(join(tmpdir(), 'storebench-page-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const opened = join(work, 'opened');
  const env = { STOREBENCH_URL: 'https://storebench.apps.example.com' };
  const opener = `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`;
  const withOpener = run('page.js', { path: binDir(t, { 'xdg-open': opener }), env });
  assert.equal(withOpener.code, 0, withOpener.stderr);
  assert.equal(withOpener.stdout.trim(), env.STOREBENCH_URL);
  assert.equal(readFileSync(opened, 'utf8'), env.STOREBENCH_URL);
  const without = run('page.js', { path: binDir(t), env });
  assert.equal(without.code, 0);
  assert.equal(without.stdout.trim(), env.STOREBENCH_URL);
  assert.match(without.stderr, /no xdg-open here to open a browser: open the URL above yourself/);
});
