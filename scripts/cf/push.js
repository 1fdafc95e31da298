// npm run push [-- extra cf push flags]: cf push -f manifest.yml --vars-file vars.yml,
// after checking that the vars file sets every ((variable)) the manifest uses.
import { readFileSync } from 'node:fs';
import { checkAll, loadVars, pushArgs, requireCf, runCf, runScript } from './cf.js';

await runScript('push', (argv) => {
  const [cf, args] = checkAll(requireCf, () => {
    const { file, vars } = loadVars();
    return pushArgs({ vars, file, manifestText: readFileSync('manifest.yml', 'utf8'), extra: argv });
  });
  return runCf(cf, args);
});
