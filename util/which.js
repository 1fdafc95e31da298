// Finding an executable on PATH, as a shell would. System tools (id, setpriv, rm) are also looked for
// where the system keeps them, since PATH may be bare under a service manager or in a container.
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export const SYSTEM_DIRS = Object.freeze([
  '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin',
]);

export function which(command, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

export function findTool(command, path = process.env.PATH ?? '', systemDirs = SYSTEM_DIRS) {
  return which(command, path) ?? which(command, systemDirs.join(delimiter));
}

// An installed program off PATH is never called missing: the reason says where it is.
export function notOnPathReason({
  command, variable, missing, path = process.env.PATH ?? '', systemDirs = SYSTEM_DIRS,
}) {
  const elsewhere = which(command, path) ? null : which(command, systemDirs.join(delimiter));
  return elsewhere
    ? `no ${variable} and no ${command} on PATH; it is installed at ${elsewhere}, ` +
      `but ${dirname(elsewhere)} is not on PATH: add it or set ${variable}`
    : missing;
}
