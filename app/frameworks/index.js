// The frameworks the app can be served by, one adapter each over the one route table
// (routes/table.js). Loaded when chosen, so an app on one framework never loads the others.
// config/settings.js declares the same names for --framework; test/app/frameworks.test.js serves
// the app on each of them, so a name with no adapter here fails it.

const FRAMEWORKS = {
  express: async () => (await import('./express.js')).expressListener,
  fastify: async () => (await import('./fastify.js')).fastifyListener,
  node: async () => (await import('./node.js')).nodeListener,
};

/** A node:http request listener serving `surface` on the framework `name`. */
export async function frameworkListener(name, surface) {
  const make = FRAMEWORKS[name];
  if (!make) throw new TypeError(`unknown framework "${name}" (one of ${Object.keys(FRAMEWORKS).join(', ')})`);
  return (await make())(surface);
}
