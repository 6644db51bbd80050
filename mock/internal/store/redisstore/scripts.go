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

// reserveScript reserves a key for a create, for ARGV[3] milliseconds,
// and counts it against the bound. KEYS: docs, res, seq, count, token,
// held, holds. ARGV: key ("" to assign), max, hold. It returns
// {"exists"}, {"full"} or {"ok", key, token}.
var reserveScript = rueidis.NewLuaScript(lua + `
reclaim(KEYS[6], KEYS[7], KEYS[4])
local key = ARGV[1]
if key ~= "" and (redis.call("HEXISTS", KEYS[1], key) == 1 or redis.call("HEXISTS", KEYS[2], key) == 1) then
  return {"exists"}
end
if tonumber(redis.call("GET", KEYS[4]) or "0") + 1 > tonumber(ARGV[2]) then
  return {"full"}
end
if key == "" then
  key = redis.call("GET", KEYS[3]) or "0"
  repeat
    key = incr(key)
  until redis.call("HEXISTS", KEYS[1], key) == 0 and redis.call("HEXISTS", KEYS[2], key) == 0
end
local token = redis.call("INCR", KEYS[5])
redis.call("HSET", KEYS[2], key, token)
redis.call("INCR", KEYS[4])
redis.call("ZADD", KEYS[6], now() + tonumber(ARGV[3]), token)
redis.call("HSET", KEYS[7], token, #KEYS[2] .. ":" .. KEYS[2] .. key)
return {"ok", key, tostring(token)}
`)

// createScript stores the document of a create with a key unless the
// key is taken or reserved ("exists") or the store is full ("full"); with
// ARGV[6] other than "1" (no document could be made) it stores nothing
// and returns "free" when neither holds. KEYS: docs, res, seq, count,
// order, ticks, sess, held, holds. ARGV: key, max, collection path, base,
// document, made. It returns "ok" when stored.
var createScript = rueidis.NewLuaScript(lua + `
reclaim(KEYS[8], KEYS[9], KEYS[4])
local key = ARGV[1]
if redis.call("HEXISTS", KEYS[1], key) == 1 or redis.call("HEXISTS", KEYS[2], key) == 1 then
  return "exists"
end
if tonumber(redis.call("GET", KEYS[4]) or "0") + 1 > tonumber(ARGV[2]) then
  return "full"
end
if ARGV[6] ~= "1" then return "free" end
redis.call("INCR", KEYS[4])
redis.call("HSET", KEYS[1], key, ARGV[5])
redis.call("ZADD", KEYS[5], redis.call("INCR", KEYS[6]), key)
redis.call("HSET", KEYS[7], ARGV[3], ARGV[4])
above(KEYS[3], key)
return "ok"
`)

// commitScript stores the document of a reserved key. When a Reset or a
// Fill took the reservation away meanwhile, or it outlived its hold, it
// stores nothing, uncounts the reservation and returns 0; otherwise 1.
// KEYS: docs, res, seq, count, order, ticks, sess, held, holds. ARGV: key,
// token, document, collection path, base.
var commitScript = rueidis.NewLuaScript(lua + `
local key = ARGV[1]
if redis.call("ZREM", KEYS[8], ARGV[2]) == 0 then return 0 end
redis.call("HDEL", KEYS[9], ARGV[2])
if redis.call("HGET", KEYS[2], key) ~= ARGV[2] then
  redis.call("DECR", KEYS[4])
  return 0
end
redis.call("HDEL", KEYS[2], key)
redis.call("HSET", KEYS[1], key, ARGV[3])
redis.call("ZADD", KEYS[5], redis.call("INCR", KEYS[6]), key)
redis.call("HSET", KEYS[7], ARGV[4], ARGV[5])
above(KEYS[3], key)
return 1
`)

// releaseScript gives up a reservation: the key is free again and the
// resource counts no more, unless it was reclaimed already. KEYS: res,
// count, held, holds. ARGV: key, token.
var releaseScript = rueidis.NewLuaScript(`
if redis.call("HGET", KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call("HDEL", KEYS[1], ARGV[1])
end
if redis.call("ZREM", KEYS[3], ARGV[2]) == 1 then
  redis.call("HDEL", KEYS[4], ARGV[2])
  redis.call("DECR", KEYS[2])
end
return 1
`)

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

// replaceScript stores a document again if it is still the one given.
// KEYS: docs. ARGV: key, old document, new document. It returns -1 when
// the key holds nothing, 0 when the document changed, 1 when replaced.
var replaceScript = rueidis.NewLuaScript(`
local cur = redis.call("HGET", KEYS[1], ARGV[1])
if not cur then return -1 end
if cur ~= ARGV[2] then return 0 end
redis.call("HSET", KEYS[1], ARGV[1], ARGV[3])
return 1
`)

// deleteScript removes a resource and returns its document, or nil.
// KEYS: docs, order, count. ARGV: key.
var deleteScript = rueidis.NewLuaScript(`
local doc = redis.call("HGET", KEYS[1], ARGV[1])
if not doc then return nil end
redis.call("HDEL", KEYS[1], ARGV[1])
redis.call("ZREM", KEYS[2], ARGV[1])
redis.call("DECR", KEYS[3])
return doc
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
