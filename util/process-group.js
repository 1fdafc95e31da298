// Every embedded server runs in the group its guard leads, so the group reaches it even once the guard is gone.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

// The live (not zombie) members; null without /proc (then signalGroup(pgid, 0) answers, zombies counted).
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
