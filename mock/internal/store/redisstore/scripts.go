package redisstore

import "github.com/redis/rueidis"

// lua holds helpers that several scripts start with.
//
// whole returns a key when it is a whole number in canonical decimal form
// that fits 64 bits, or nil. Sequence numbers are kept as decimal strings,
// which greater compares and incr counts up, since Lua's numbers are exact
// only to 2^53. above moves a collection's sequence past such a key.
// reclaim gives up the reservations that outlived their hold: those of
// processes that stopped between reserving and storing.
// mget returns the fields of a hash in the order of names, in batches
// that Lua's unpack can take.
const lua = `
local function whole(k)
  if k == "0" or (string.match(k, "^[1-9]%d*$") and (#k < 20 or (#k == 20 and k <= "18446744073709551615"))) then
    return k
  end
  return nil
end
local function greater(a, b)
  return #a > #b or (#a == #b and a > b)
end
local function incr(n)
  local i = #n
  while i > 0 and string.sub(n, i, i) == "9" do i = i - 1 end
  if i == 0 then return "1" .. string.rep("0", #n) end
  return string.sub(n, 1, i - 1) .. string.char(string.byte(n, i) + 1) .. string.rep("0", #n - i)
end
local function above(seqkey, k)
  local n = whole(k)
  if n and greater(n, redis.call("GET", seqkey) or "0") then
    redis.call("SET", seqkey, n)
  end
end
local function now()
  local t = redis.call("TIME")
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function reclaim(held, holds, count)
  local gone = redis.call("ZRANGEBYSCORE", held, "-inf", now(), "LIMIT", 0, 100)
  for _, tok in ipairs(gone) do
    local v = redis.call("HGET", holds, tok)
    if v then
      local n, rest = string.match(v, "^(%d+):(.*)$")
      local res, key = string.sub(rest, 1, tonumber(n)), string.sub(rest, tonumber(n) + 1)
      if redis.call("HGET", res, key) == tok then redis.call("HDEL", res, key) end
    end
    redis.call("HDEL", holds, tok)
    redis.call("ZREM", held, tok)
    redis.call("DECR", count)
  end
end
local function mget(hash, names, out)
  for i = 1, #names, 1000 do
    local last = math.min(i + 999, #names)
    local got = redis.call("HMGET", hash, unpack(names, i, last))
    for j = 1, #got do out[#out + 1] = got[j] end
  end
  return out
end
`

// listScript returns up to ARGV[1] documents of a collection, oldest
// first; all when ARGV[1] is negative. KEYS: docs, order.
var listScript = rueidis.NewLuaScript(lua + `
local limit = tonumber(ARGV[1])
if limit == 0 then return {} end
local stop = -1
if limit > 0 then stop = limit - 1 end
local names = redis.call("ZRANGE", KEYS[2], 0, stop)
return mget(KEYS[1], names, {})
`)

// dumpScript returns a session's collections that hold resources, sorted
// by path, as {path, {documents...}, path, {documents...}, ...}. KEYS:
// sess.
var dumpScript = rueidis.NewLuaScript(lua + `
local cols = redis.call("HGETALL", KEYS[1])
local bases, names = {}, {}
for i = 1, #cols, 2 do
  bases[cols[i]] = cols[i + 1]
  names[#names + 1] = cols[i]
end
table.sort(names)
local out = {}
for _, name in ipairs(names) do
  local base = bases[name]
  local keys = redis.call("ZRANGE", base .. ":o", 0, -1)
  if #keys > 0 then
    out[#out + 1] = name
    out[#out + 1] = mget(base .. ":d", keys, {})
  end
end
return out
`)

// fillScript makes a collection hold exactly the given resources unless
// that takes the store beyond its bound (it returns 0 then; 1 when done).
// Reservations in the collection are taken away. KEYS: docs, order,
// ticks, seq, res, count, sess. ARGV: max, collection path, base,
// sequence, then key and document pairs.
var fillScript = rueidis.NewLuaScript(`
local n = (#ARGV - 4) / 2
local old = redis.call("HLEN", KEYS[1])
local count = tonumber(redis.call("GET", KEYS[6]) or "0")
if n > old and count - old + n > tonumber(ARGV[1]) then return 0 end
redis.call("DEL", KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
for i = 1, n do
  local k, d = ARGV[3 + 2 * i], ARGV[4 + 2 * i]
  redis.call("HSET", KEYS[1], k, d)
  redis.call("ZADD", KEYS[2], i, k)
end
redis.call("SET", KEYS[3], n)
redis.call("SET", KEYS[4], ARGV[4])
redis.call("INCRBY", KEYS[6], n - old)
redis.call("HSET", KEYS[7], ARGV[2], ARGV[3])
return 1
`)

// resetScript removes everything a session holds and uncounts its
// resources; reservations stay counted until their creates find them
// gone. KEYS: sess, count.
var resetScript = rueidis.NewLuaScript(`
local bases = redis.call("HVALS", KEYS[1])
local n = 0
for _, base in ipairs(bases) do
  n = n + redis.call("HLEN", base .. ":d")
  redis.call("DEL", base .. ":d", base .. ":o", base .. ":t", base .. ":s", base .. ":r")
end
redis.call("DEL", KEYS[1])
redis.call("DECRBY", KEYS[2], n)
return n
`)
