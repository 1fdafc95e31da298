// Process groups: every embedded server runs in the group its guard leads (spawned
// detached), so the group reaches the server even once the guard itself is gone.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The pids of the live (not zombie) processes in group pgid, read from /proc; null where
 * there is no /proc (then signalGroup(pgid, 0) is the only answer, and it counts zombies).
 */
export function groupMembers(pgid) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const members = [];
  for (const pid of pids) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone while we looked
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(pid));
  }
  return members;
}

/** Sends signal to every process in group pgid; false when there is none (or no pgid). */
export function signalGroup(pgid, signal) {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const groupAlive = (pgid) => {
  const members = groupMembers(pgid);
  return members ? members.length > 0 : signalGroup(pgid, 0);
};

/**
 * Ends whatever is left in group pgid: signal first, SIGKILL after graceMs. Resolves once
 * the group is empty (or, without /proc, once the SIGKILL is sent).
 */
export async function endGroup(pgid, { signal = 'SIGTERM', graceMs = 3000 } = {}) {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, signal);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(50);
    if (!groupAlive(pgid)) return;
  }
  signalGroup(pgid, 'SIGKILL');
  for (let i = 0; i < 20 && groupAlive(pgid); i++) await sleep(50);
}
