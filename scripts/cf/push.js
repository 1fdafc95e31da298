// npm run push [-- extra cf push flags]: cf push -f manifest.yml --vars-file vars.yml,
// after checking that the vars file sets every ((variable)) the manifest uses. The app's write
// token (write_token) comes from the vars file, else from vars.write-token.yml beside it,
// which push generates the first time: never printed.
import { readFileSync } from 'node:fs';
import { checkAll, ensureWriteToken, loadVars, pushArgs, requireCf, runCf, runScript } from './cf.js';

await runScript('push', (argv) => {
  const [cf, [args, token]] = checkAll(requireCf, () => {
    const { file, vars } = loadVars();
    const token = ensureWriteToken({ file, vars });
    const varsFiles = token.file ? [token.file] : [];
    const manifestText = readFileSync('manifest.yml', 'utf8');
    return [pushArgs({ vars: { ...vars, ...token.vars }, file, manifestText, extra: argv, varsFiles }), token];
  });
  const code = runCf(cf, args);
  // After cf's own output, where it is seen.
  if (token.file) {
    const made = token.created ? 'generated now and ' : '';
    console.error(`npm run push: writes to the app need its token, ${made}kept in ${token.file}:`);
    console.error('  give it to the driver as STOREBENCH_WRITE_TOKEN ' +
      '(or in a request as Authorization: Bearer <token>)');
  }
  return code;
});
