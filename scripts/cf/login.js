// npm run login: cf login -a $CF_API [-o $CF_ORG] [-s $CF_SPACE] [extra cf login flags, e.g. --sso]
import { checkAll, loginArgs, requireCf, runCf, runScript } from './cf.js';

await runScript('login', (argv) => {
  const [cf, args] = checkAll(requireCf, () => [...loginArgs(), ...argv]);
  return runCf(cf, args);
});
