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
// the reservations that outlived their hold, once a batch.
var batchScript = rueidis.NewLuaScript(lua + `
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
-- journal number): a named session's keys expire with it, also those
-- made after Touch last refreshed them. The default session's keys have
-- none, and nor does ref.
local function inherit(key, ref)
  local t = redis.call("PTTL", ref)
  if t > 0 then redis.call("PEXPIRE", key, t) end
end

local ops = {}

-- create stores the document of a create with a key unless the key is
-- taken or reserved ("exists") or the store is full ("full"); with made
-- other than "1" (no document could be made) it stores nothing and
-- answers "free" when neither holds. It answers "ok" when stored, or,
-- given the keys and arguments of append after its own (n is the number
-- of its keys), appends that journal record too and answers its number.
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
  if n > 9 then return ops.append(k + 9, a + 6) end
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
-- create, the number of the journal record it appends.
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
  if n > 9 then return ops.append(k + 9, a + 5) end
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
-- sessions and the session's rules, active, journal, seq, hooks and
-- jbytes, which
-- expire after idle (and a little more, below). A new session is made
-- only when create is "1": else it answers {"new", nil, expired...}. It
-- answers {} when the session is new and there are max sessions, else
-- {"ok", active scenario or nil, expired...}.
function ops.touch(k, a)
  local sessions = KEYS[k + 1]
  local name, t, idle, max, prefix = ARGV[a + 1], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]), ARGV[a + 5]
  local create = ARGV[a + 6] == "1"
  local function drop(n)
    local base = prefix .. "s" .. #n .. ":" .. n .. ":"
    redis.call("DEL", base .. "rules", base .. "active", base .. "journal", base .. "jseq", base .. "hooks", base .. "jbytes")
    redis.call("ZREM", sessions, n)
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
    for _, n in ipairs(redis.call("ZRANGEBYSCORE", sessions, "-inf", "(" .. (t - idle))) do
      drop(n)
      out[#out + 1] = n
    end
    if redis.call("ZCARD", sessions) >= max then return {} end
  end
  redis.call("ZADD", sessions, t, name)
  -- The session's keys live idle and a sixteenth past their last
  -- refresh, which comes once a sixteenth of idle has passed since the
  -- one before (the journal's number, touched by every request, tells):
  -- they live at least idle past every use, for one call a use, not five.
  local ttl = idle + math.floor(idle / 16)
  if redis.call("PTTL", KEYS[k + 5]) < idle then
    for i = k + 2, k + 7 do redis.call("PEXPIRE", KEYS[i], ttl) end
    -- The journal number exists from the session's first use on (its
    -- PTTL is then -2), with the session's TTL, which the keys made
    -- later inherit (see inherit).
    redis.call("SET", KEYS[k + 5], "0", "NX", "PX", ttl)
  end
  out[2] = redis.call("GET", KEYS[k + 3])
  return out
end

-- hit counts a rule's match. Its keys are the session's rules and
-- journal number.
function ops.hit(k, a)
  local rules, rule, every = KEYS[k + 1], ARGV[a + 1], tonumber(ARGV[a + 2])
  local m = redis.call("HINCRBY", rules, rule .. "|m", 1)
  if m == 1 then inherit(rules, KEYS[k + 2]) end
  if every > 1 and m % every ~= 0 then return 0 end
  return redis.call("HINCRBY", rules, rule .. "|a", 1)
end

-- active answers a session's active scenario, or nil when none was set.
function ops.active(k, a)
  return redis.call("GET", KEYS[k + 1])
end

-- append adds a journal record and answers its sequence number. Its
-- keys are the journal, its number and its weight in bytes; its
-- arguments the records to keep, the bytes to keep (0: no bound), the
-- record and its weight. The journal drops its oldest records while it
-- holds more bytes than it may, keeping the newest, and those beyond the
-- count once there are 64 more than it (a batch at a time costs Redis
-- less than a record at a time; Journal reads the newest size).
function ops.append(k, a)
  local journal, seq, bytes = unpack(KEYS, k + 1, k + 3)
  local size, data, maxb, w = tonumber(ARGV[a + 1]), ARGV[a + 2], tonumber(ARGV[a + 3]), ARGV[a + 4]
  local n = redis.call("INCR", seq)
  redis.call("XADD", journal, "*", "s", n, "d", data, "b", w)
  local total = redis.call("INCRBY", bytes, w)
  if n == 1 then inherit(journal, seq) end
  if total == tonumber(w) then inherit(bytes, seq) end
  local len = redis.call("XLEN", journal)
  local excess = 0
  if len >= size + 64 then excess = len - size end
  local freed, dropped, from = 0, 0, "-"
  local function more()
    return dropped < len - 1 and (dropped < excess or (maxb > 0 and total - freed > maxb))
  end
  while more() do
    local batch = redis.call("XRANGE", journal, from, "+", "COUNT", math.max(excess - dropped, 16))
    local ids = {}
    for _, m in ipairs(batch) do
      if not more() then break end
      local f = m[2]
      for i = 1, #f, 2 do
        if f[i] == "b" then freed = freed + tonumber(f[i + 1]) end
      end
      ids[#ids + 1] = m[1]
      dropped = dropped + 1
      from = "(" .. m[1]
    end
    if #ids == 0 then break end
    redis.call("XDEL", journal, unpack(ids))
  end
  if freed > 0 then redis.call("DECRBY", bytes, freed) end
  return n
end

-- activate sets a session's active scenario (keys: active, journal
-- number; argument: the name), and subscribe a webhook's subscriber
-- (keys: hooks, journal number; arguments: name, data).
function ops.activate(k, a)
  redis.call("SET", KEYS[k + 1], ARGV[a + 1])
  inherit(KEYS[k + 1], KEYS[k + 2])
  return 1
end

function ops.subscribe(k, a)
  redis.call("HSET", KEYS[k + 1], ARGV[a + 1], ARGV[a + 2])
  inherit(KEYS[k + 1], KEYS[k + 2])
  return 1
end

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
`)
