// Finding an executable on PATH, as a shell would: the first directory holding it wins.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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
