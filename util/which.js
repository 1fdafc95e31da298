// Finding an executable on PATH, as a shell would: the first directory holding it wins.
// System tools (id, setpriv, rm) are also looked for where the system keeps them, since PATH
// may be bare under a service manager or in a container; a server program is taken from
// PATH only, but when it is installed elsewhere the reason says where.
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** Where Debian, Red Hat and Alpine keep system programs, in a root PATH's order. */
export const SYSTEM_DIRS = Object.freeze([
  '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin',
]);

/** The full path of an executable on PATH, or null. */
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

/** A system tool's full path: PATH first, then systemDirs; null when it is in neither. */
export function findTool(command, path = process.env.PATH ?? '', systemDirs = SYSTEM_DIRS) {
  return which(command, path) ?? which(command, systemDirs.join(delimiter));
}

/**
 * The reason a server program is not run: `missing` (how to install it) when it is nowhere,
 * or, when it is installed off PATH, where it is and what to do, so an installed program is
 * never called missing.
 */
export function notOnPathReason({
  command, variable, missing, path = process.env.PATH ?? '', systemDirs = SYSTEM_DIRS,
}) {
  const elsewhere = which(command, path) ? null : which(command, systemDirs.join(delimiter));
  return elsewhere
    ? `no ${variable} and no ${command} on PATH; it is installed at ${elsewhere}, ` +
      `but ${dirname(elsewhere)} is not on PATH: add it or set ${variable}`
    : missing;
}
