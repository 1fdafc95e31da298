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

export function systemInfo({ target, now = new Date() } = {}) {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cpuCount: cpus.length,
    loadtest: loadtestVersion(),
    target,
    date: now.toISOString(),
  };
}
