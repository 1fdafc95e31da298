// ESM's `require.main === module`: true when the file was run directly (node FILE, node FILE-without-.js).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function isMain(moduleUrl) {
  if (!process.argv[1]) return false;
  const modulePath = fileURLToPath(moduleUrl);
  let scriptPath;
  try {
    scriptPath = realpathSync(process.argv[1]);
  } catch {
    try { scriptPath = realpathSync(`${process.argv[1]}.js`); } catch { return false; }
  }
  return scriptPath === realpathSync(modulePath) || `${scriptPath}.js` === realpathSync(modulePath);
}
