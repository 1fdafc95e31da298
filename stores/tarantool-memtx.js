// Tarantool with the memtx engine (in memory) through tarantool-driver.
import { tarantoolAdapter } from './clients/tarantool-adapter.js';

export const { name, description, needs, writes, pipelining, open } = tarantoolAdapter({
  name: 'tarantool-memtx',
  engine: 'memtx',
  description: 'Tarantool, memtx engine (in memory), through tarantool-driver',
});
