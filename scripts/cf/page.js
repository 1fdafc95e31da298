// npm run page: opens the deployed app (https://<route> from the vars file, or
// STOREBENCH_URL) in the browser; prints the URL when no browser opener is installed.
import { spawn } from 'node:child_process';
import { appUrl, browserCommand, loadVars, optionalSetting, runScript } from './cf.js';
import { which } from '../../util/which.js';

await runScript('page', async () => {
  // STOREBENCH_URL set: no vars file needed
  const url = optionalSetting({}, 'appUrl') ?? appUrl(loadVars());
  console.log(url);
  const [command, args] = browserCommand(process.platform, url);
  if (!which(process.platform === 'win32' ? `${command}.exe` : command)) {
    console.error(`(no ${command} here to open a browser: open the URL above yourself)`);
    return 0;
  }
  const opener = spawn(command, args, { stdio: 'ignore', detached: true });
  const code = await new Promise((resolve) => {
    opener.once('error', () => resolve(1));
    opener.once('exit', (status) => resolve(status ?? 1));
  });
  if (code !== 0) console.error(`(${command} could not open a browser: open the URL above yourself)`);
  return 0;
});
