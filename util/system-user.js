// A local user's uid and gid, read from /etc/passwd rather than by running `id`, which a
// bare PATH (a service manager, a container) may not have: with it missing, a postgres user
// that exists read as one that does not.
import { readFileSync } from 'node:fs';

/** { uid, gid } of user name from passwdFile, or null when it has no such line (or cannot be read). */
export function systemUser(name, passwdFile = '/etc/passwd') {
  let text;
  try {
    text = readFileSync(passwdFile, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && /^\d+$/.test(uid ?? '') && /^\d+$/.test(gid ?? '')) return { uid: Number(uid), gid: Number(gid) };
  }
  return null;
}
