// npm run service_delete [-- cloudant|redis]: deletes the service instances named in the
// vars file, and their data. Delete the app first (cf delete APP -r), which unbinds them.
import { checkAll, chosenServices, deleteServiceArgs, loadVars, requireCf, runCf, runScript } from './cf.js';

await runScript('service_delete', (argv) => {
  const kinds = chosenServices(argv);
  const [cf, commands] = checkAll(requireCf, () => {
    const context = loadVars();
    return checkAll(...kinds.map((kind) => () => deleteServiceArgs(kind, context)));
  });
  let failed = 0;
  for (const args of commands) failed ||= runCf(cf, args); // try every one, report the first failure
  return failed;
});
