// npm run vcap_services: the services bound to the app, as the app sees them in
// VCAP_SERVICES, with every password, API key and certificate masked. Inside an app
// container (cf ssh) it reads $VCAP_SERVICES; elsewhere it asks the platform through cf
// (cf app APP --guid, then cf curl /v3/apps/GUID/env), for the app named in the vars file.
import { maskCredentials } from '../../util/redact.js';
import { cloudFoundryEnv, VcapError } from '../../config/cf-env.js';
import {
  captureCf, checkAll, CfScriptError, loadVars, optionalSetting, requireCf, runScript, setting, vcapServicesFromAppEnv,
} from './cf.js';

function fromContainer(env) {
  try {
    return cloudFoundryEnv(env).services;
  } catch (error) {
    if (error instanceof VcapError) throw new CfScriptError(error.message);
    throw error;
  }
}

function fromPlatform() {
  // CF_APP set: no vars file needed
  const [cf, app] = checkAll(requireCf, () => optionalSetting({}, 'cfApp') ?? setting(loadVars(), 'cfApp'));
  const guid = captureCf(cf, ['app', app, '--guid']).trim();
  return vcapServicesFromAppEnv(captureCf(cf, ['curl', `/v3/apps/${guid}/env`]));
}

await runScript('vcap_services', () => {
  const services = process.env.VCAP_SERVICES ? fromContainer(process.env) : fromPlatform();
  console.log(JSON.stringify(maskCredentials(services), null, 2));
  return 0;
});
