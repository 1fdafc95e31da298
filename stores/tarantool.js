// Tarantool with the vinyl engine (on-disk LSM tree) through tarantool-driver.
import { tarantoolAdapter } from './clients/tarantool-adapter.js';

export const { name, description, needs, writes, pipelining, open } = tarantoolAdapter({
  name: 'tarantool',
  engine: 'vinyl',
  description: 'Tarantool, vinyl engine (on-disk LSM tree), through tarantool-driver',
});
