// What a report ran on: every result says which Node, which CPU, which target, when.
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

function loadtestVersion() {
  try {
    const require = createRequire(import.meta.url);
    const packagePath = require.resolve('loadtest/package.json');
    return JSON.parse(readFileSync(packagePath, 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

// loadtest's version only when it sent the load: a run that sent none must not name it.
export function systemInfo({ target, engine, now = new Date() } = {}) {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cpuCount: cpus.length,
    ...(engine === 'loadtest' ? { loadtest: loadtestVersion() } : {}),
    target,
    date: now.toISOString(),
    hostname: os.hostname(),
  };
}
