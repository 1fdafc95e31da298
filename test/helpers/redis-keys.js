// What a run left on a Redis server: the keys matching any of the patterns (KEYS: fine for the
// few keys a test's database holds).
import { createClient } from 'redis';

export async function leftKeys(url, patterns) {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await Promise.all(patterns.map((pattern) => client.keys(pattern)))).flat().sort();
  } finally {
    await client.close();
  }
}
