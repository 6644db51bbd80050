package redisstore

import "github.com/redis/rueidis"

// batchScript runs a batch of operations (see batcher) and returns their
// answers in order. ARGV holds, for each operation, its name, the number
// of its keys, the number of its arguments, and its arguments; KEYS holds
// the keys of every operation, in order. Each operation below is given
// k and a, where its keys and arguments start in KEYS and ARGV, less one,
// and n, the number of its keys; it answers nil (a nil reply), a number,
// a string or an array.
// Operations that make a resource count against the bound first reclaim
// the reservations that outlived their hold, once a batch. Options.Ops
// adds operations to the store's own; Store.batch is the script with
// them.
func batchScript(more string) *rueidis.Lua {
	return rueidis.NewLuaScript(lua + batchOps + more + batchRun)
}

// batchOps are the store's operations of batchScript.
const batchOps = `
local reclaimed = false
local function reclaimOnce(held, holds, count)
  if not reclaimed then
    reclaim(held, holds, count)
    reclaimed = true
  end
end

-- addOrder puts a new resource last in its collection's order. The
-- first resource of a collection, since it was made, filled or reset,
-- enters it in its session's hash of collections.
local function addOrder(order, ticks, sess, path, base, key)
  local tick = redis.call("INCR", ticks)
  redis.call("ZADD", order, tick, key)
  if tick == 1 then redis.call("HSET", sess, path, base) end
end

-- inherit gives key, just made, the TTL of the session key ref (its
-- clock, see SessionKeys): a named session's keys expire with it, also
-- those made after Touch last refreshed them. The default session's keys
-- have none, and nor does ref.
local function inherit(key, ref)
  local t = redis.call("PTTL", ref)
  if t > 0 then redis.call("PEXPIRE", key, t) end
end

local ops = {}

-- andThen runs the operation whose name is ARGV[a + 1], whose n keys
-- start after k and whose arguments start after a + 1: the one that
-- follows a create or commit that stored (Then).
local function andThen(k, a, n)
  return ops[ARGV[a + 1]](k, a + 1, n)
end

-- create stores the document of a create with a key unless the key is
-- taken or reserved ("exists") or the store is full ("full"); with made
-- other than "1" (no document could be made) it stores nothing and
-- answers "free" when neither holds. It answers "ok" when stored, or,
-- given after its own keys and arguments (n is the number of its keys)
-- the name, keys and arguments of an operation to follow it (see Then),
-- runs that operation too and answers its answer.
function ops.create(k, a, n)
  local docs, res, seq, count, order, ticks, sess, held, holds = unpack(KEYS, k + 1, k + 9)
  local key, max, path, base, doc, made = unpack(ARGV, a + 1, a + 6)
  reclaimOnce(held, holds, count)
  if redis.call("HEXISTS", res, key) == 1 then return "exists" end
  if made ~= "1" then
    if redis.call("HEXISTS", docs, key) == 1 then return "exists" end
    if tonumber(redis.call("GET", count) or "0") + 1 > tonumber(max) then return "full" end
    return "free"
  end
  -- Counted first and stored only when the key is free (HSETNX): one
  -- call fewer than asking first, on the path of every create.
  if redis.call("INCR", count) > tonumber(max) then
    redis.call("DECR", count)
    if redis.call("HEXISTS", docs, key) == 1 then return "exists" end
    return "full"
  end
  if redis.call("HSETNX", docs, key, doc) == 0 then
    redis.call("DECR", count)
    return "exists"
  end
  addOrder(order, ticks, sess, path, base, key)
  above(seq, key)
  if n > 9 then return andThen(k + 9, a + 6, n - 9) end
  return "ok"
end

-- reserve reserves a key ("" to assign one) for a create, for hold
-- milliseconds, and counts it against the bound. It answers {"exists"},
-- {"full"} or {"ok", key, token}.
function ops.reserve(k, a)
  local docs, res, seq, count, tokens, held, holds = unpack(KEYS, k + 1, k + 7)
  local key, max, hold = unpack(ARGV, a + 1, a + 3)
  reclaimOnce(held, holds, count)
  if key ~= "" and (redis.call("HEXISTS", docs, key) == 1 or redis.call("HEXISTS", res, key) == 1) then
    return {"exists"}
  end
  if redis.call("INCR", count) > tonumber(max) then
    redis.call("DECR", count)
    return {"full"}
  end
  if key == "" then
    key = redis.call("GET", seq) or "0"
    repeat
      key = incr(key)
    until redis.call("HEXISTS", docs, key) == 0 and redis.call("HEXISTS", res, key) == 0
  end
  local token = redis.call("INCR", tokens)
  redis.call("HSET", res, key, token)
  redis.call("ZADD", held, now() + tonumber(hold), token)
  redis.call("HSET", holds, token, #res .. ":" .. res .. key)
  return {"ok", key, tostring(token)}
end

-- commit stores the document of a reserved key. When a Reset or a Fill
-- took the reservation away meanwhile, or it outlived its hold, it stores
-- nothing, uncounts the reservation and answers 0; otherwise 1, or, as
-- create, the answer of the operation that follows it.
function ops.commit(k, a, n)
  local docs, res, seq, count, order, ticks, sess, held, holds = unpack(KEYS, k + 1, k + 9)
  local key, token, doc, path, base = unpack(ARGV, a + 1, a + 5)
  if redis.call("ZREM", held, token) == 0 then return 0 end
  redis.call("HDEL", holds, token)
  if redis.call("HGET", res, key) ~= token then
    redis.call("DECR", count)
    return 0
  end
  redis.call("HDEL", res, key)
  redis.call("HSET", docs, key, doc)
  addOrder(order, ticks, sess, path, base, key)
  above(seq, key)
  if n > 9 then return andThen(k + 9, a + 5, n - 9) end
  return 1
end

-- release gives up a reservation: the key is free again and the resource
-- counts no more, unless it was reclaimed already.
function ops.release(k, a)
  local res, count, held, holds = unpack(KEYS, k + 1, k + 4)
  local key, token = unpack(ARGV, a + 1, a + 2)
  if redis.call("HGET", res, key) == token then
    redis.call("HDEL", res, key)
  end
  if redis.call("ZREM", held, token) == 1 then
    redis.call("HDEL", holds, token)
    redis.call("DECR", count)
  end
  return 1
end

-- get answers the document under a key, or nil.
function ops.get(k, a)
  return redis.call("HGET", KEYS[k + 1], ARGV[a + 1])
end

-- replace stores a document again if it is still the old one given. It
-- answers -1 when the key holds nothing, 0 when the document changed, 1
-- when replaced.
function ops.replace(k, a)
  local docs = KEYS[k + 1]
  local key, old, new = unpack(ARGV, a + 1, a + 3)
  local cur = redis.call("HGET", docs, key)
  if not cur then return -1 end
  if cur ~= old then return 0 end
  redis.call("HSET", docs, key, new)
  return 1
end

-- delete removes a resource and answers its document, or nil.
function ops.delete(k, a)
  local docs, order, count = unpack(KEYS, k + 1, k + 3)
  local key = ARGV[a + 1]
  local doc = redis.call("HGET", docs, key)
  if not doc then return nil end
  redis.call("HDEL", docs, key)
  redis.call("ZREM", order, key)
  redis.call("DECR", count)
  return doc
end

-- touch notes the use of a session at t. Its keys are the sorted set of
-- sessions and the session's keys (Options.Session), which expire after
-- idle (and a little more, below); its arguments after create are the
-- indexes among those of the clock and of the key to read (from 1; 0
-- when there are none), then the suffixes of the session's keys, in the
-- same order, which drop deletes for sessions that expired. A new session
-- is made only when create is "1": else it answers {"new", nil,
-- expired...}. It answers {} when the session is new and there are max
-- sessions, else {"ok", the value of the key read or nil, expired...}.
function ops.touch(k, a, n)
  local sessions = KEYS[k + 1]
  local name, t, idle, max, prefix = ARGV[a + 1], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]), ARGV[a + 5]
  local create = ARGV[a + 6] == "1"
  local clock, read = tonumber(ARGV[a + 7]), tonumber(ARGV[a + 8])
  local function drop(s)
    local base = prefix .. "s" .. #s .. ":" .. s .. ":"
    local gone = {}
    for i = 1, n - 1 do gone[i] = base .. ARGV[a + 8 + i] end
    if #gone > 0 then redis.call("DEL", unpack(gone)) end
    redis.call("ZREM", sessions, s)
  end
  local out = {"ok", false}
  local last = redis.call("ZSCORE", sessions, name)
  if last and t - tonumber(last) > idle then
    drop(name)
    out[#out + 1] = name
    last = nil
  end
  if not last and not create then
    out[1] = "new"
    return out
  end
  if not last and redis.call("ZCARD", sessions) >= max then
    for _, s in ipairs(redis.call("ZRANGEBYSCORE", sessions, "-inf", "(" .. (t - idle))) do
      drop(s)
      out[#out + 1] = s
    end
    if redis.call("ZCARD", sessions) >= max then return {} end
  end
  redis.call("ZADD", sessions, t, name)
  -- The session's keys live idle and a sixteenth past their last
  -- refresh, which comes once a sixteenth of idle has passed since the
  -- one before (the clock, touched by every request, tells): they live
  -- at least idle past every use, for one call a use, not five.
  local ttl = idle + math.floor(idle / 16)
  if clock > 0 and redis.call("PTTL", KEYS[k + 1 + clock]) < idle then
    for i = k + 2, k + n do redis.call("PEXPIRE", KEYS[i], ttl) end
    -- The clock exists from the session's first use on (its PTTL is
    -- then -2), with the session's TTL, which the keys made later
    -- inherit (see inherit).
    redis.call("SET", KEYS[k + 1 + clock], "0", "NX", "PX", ttl)
  end
  if read > 0 then out[2] = redis.call("GET", KEYS[k + 1 + read]) end
  return out
end

`

// batchRun runs the operations of a batch: the end of batchScript.
const batchRun = `
-- run runs the operation named name whose keys and arguments start
-- after k and a + 2, and gives it the number of its keys.
local function run(name, k, a)
  return ops[name](k, a + 2, tonumber(ARGV[a + 1]))
end

-- An operation that fails (a key of the wrong type, say) answers its
-- error and fails alone: the others of the batch run. What it changed
-- before it failed stays, as it would for a script of its own.
local out, k, a, n = {}, 0, 1, #ARGV
while a <= n do
  local ok, r = pcall(run, ARGV[a], k, a)
  if not ok then
    if type(r) == "table" and r.err then
      r = {err = r.err}
    else
      r = {err = "ERR " .. tostring(r)}
    end
  elseif r == nil then
    r = false
  end
  out[#out + 1] = r
  k, a = k + tonumber(ARGV[a + 1]), a + 3 + tonumber(ARGV[a + 2])
end
return out
`
