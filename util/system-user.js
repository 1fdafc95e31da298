// A local user's uid and gid from /etc/passwd, not `id`, which a bare PATH may not have.
import { readFileSync } from 'node:fs';

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
