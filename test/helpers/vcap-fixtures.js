// Realistic VCAP_SERVICES bindings (test/fixtures/vcap/*.json) and the secret strings each
// holds, so tests can prove none of them is ever shown.
import { readFileSync } from 'node:fs';

/** The VCAP_SERVICES object of test/fixtures/vcap/<name>.json. */
export function vcapFixture(name) {
  return JSON.parse(readFileSync(new URL(`../fixtures/vcap/${name}.json`, import.meta.url), 'utf8'));
}

/** Every password, API key and certificate in the fixture: values of secret-named fields. */
export function fixtureSecrets(vcap) {
  const secrets = new Set();
  const walk = (node, key = '') => {
    if (Array.isArray(node)) node.forEach((item) => walk(item, key));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, k);
    else if (typeof node === 'string' && /password|apikey|certificate_base64|REDIS_PASSWORD/i.test(key) && !/description|name/.test(key)) secrets.add(node);
    // passwords that only live inside URLs (user-provided services)
    if (typeof node === 'string' && /^[a-z]+:\/\//.test(node)) {
      try { const password = new URL(node).password; if (password) secrets.add(decodeURIComponent(password)); } catch {}
    }
  };
  walk(vcap);
  return [...secrets];
}

/** Asserts that none of secrets occurs in text; names the first one found (masked) if one does. */
export function assertNoSecrets(assert, text, secrets, where) {
  for (const secret of secrets) {
    assert.ok(!String(text).includes(secret), `${where} shows a secret (${secret.slice(0, 3)}…)`);
  }
}
