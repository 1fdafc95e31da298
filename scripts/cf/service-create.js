// npm run service_create [-- cloudant|redis]: creates the service instances the manifest
// binds, named in the vars file, from the offerings and plans CLOUDANT_OFFERING/PLAN and
// REDIS_OFFERING/PLAN name (defaults: IBM Cloudant cloudantnosqldb/lite, Redis Cloud rediscloud/30mb).
import { checkAll, chosenServices, createServiceArgs, loadVars, requireCf, runCf, runScript } from './cf.js';

await runScript('service_create', (argv) => {
  const kinds = chosenServices(argv);
  // every setting is checked before cf runs
  const [cf, commands] = checkAll(requireCf, () => {
    const context = loadVars();
    return checkAll(...kinds.map((kind) => () => createServiceArgs(kind, context)));
  });
  for (const args of commands) {
    const code = runCf(cf, args);
    if (code !== 0) return code;
  }
  console.error('Service creation can take a few minutes: `cf services` shows when it has succeeded.');
  return 0;
});
