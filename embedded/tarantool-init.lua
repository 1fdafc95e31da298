-- The embedded Tarantool: listens on loopback and holds storebench_vinyl and storebench_memtx (key
-- string, value varbinary so any bytes round-trip). Environment: STOREBENCH_TARANTOOL_PORT,
-- STOREBENCH_TARANTOOL_USER, STOREBENCH_TARANTOOL_PASSWORD, STOREBENCH_TARANTOOL_MEMTX_MB (default 64),
-- STOREBENCH_TARANTOOL_MAX_TUPLE_SIZE (default Tarantool's own, 1 MB).
local port = assert(os.getenv('STOREBENCH_TARANTOOL_PORT'), 'STOREBENCH_TARANTOOL_PORT is not set')
local user = os.getenv('STOREBENCH_TARANTOOL_USER') or 'storebench'
local password = assert(os.getenv('STOREBENCH_TARANTOOL_PASSWORD'), 'STOREBENCH_TARANTOOL_PASSWORD is not set')

-- Listen only once the spaces and the user exist: whoever sees the port open can use them.
box.cfg({
    work_dir = '.',
    -- Small, because several stores and helpers share the machine; a 200 KB value needs far less.
    memtx_memory = (tonumber(os.getenv('STOREBENCH_TARANTOOL_MEMTX_MB')) or 64) * 1024 * 1024,
    vinyl_memory = 32 * 1024 * 1024,
    vinyl_cache = 16 * 1024 * 1024,
    checkpoint_count = 1,
    memtx_max_tuple_size = tonumber(os.getenv('STOREBENCH_TARANTOOL_MAX_TUPLE_SIZE')) or 1024 * 1024,
    vinyl_max_tuple_size = tonumber(os.getenv('STOREBENCH_TARANTOOL_MAX_TUPLE_SIZE')) or 1024 * 1024,
    log_level = 4,
})

local format = { { name = 'key', type = 'string' }, { name = 'value', type = 'varbinary' } }
for _, engine in ipairs({ 'vinyl', 'memtx' }) do
    local space = box.schema.space.create('storebench_' .. engine, {
        engine = engine, format = format, if_not_exists = true,
    })
    space:create_index('primary', { parts = { 'key' }, if_not_exists = true })
end

box.schema.user.create(user, { password = password, if_not_exists = true })
box.schema.user.passwd(user, password)
for _, engine in ipairs({ 'vinyl', 'memtx' }) do
    box.schema.user.grant(user, 'read,write', 'space', 'storebench_' .. engine, { if_not_exists = true })
end
-- So the store (and tests) can ask box.space.X.engine through eval.
box.schema.user.grant(user, 'execute', 'universe', nil, { if_not_exists = true })

box.cfg({ listen = '127.0.0.1:' .. port })
