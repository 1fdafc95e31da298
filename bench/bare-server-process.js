// Starts bench/bare-server.js as a child process; resolves { url, stop() }.
import { fileURLToPath } from 'node:url';
import { forkListening } from '../util/fork-child.js';

const script = fileURLToPath(new URL('./bare-server.js', import.meta.url));

export async function startBareServer(args = []) {
  const { message, stop } = await forkListening(script, args, { name: 'bare server', output: 'inherit' });
  return { url: message.url, stop };
}
