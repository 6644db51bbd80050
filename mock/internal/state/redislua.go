package state

import "github.com/plantmock/plantmock/mock/internal/store/redisstore"

// redisOps are the operations of the sessions' state that the Redis
// backend adds to redisstore's batch script (redisstore.Options.Ops):
// the calls a request makes on its way go to Redis batched with the
// store's. Each finds its keys and arguments after k and a; a key an
// operation makes takes the session's TTL from its clock, the journal
// number (inherit).
const redisOps = `
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
-- less than a record at a time; Entries reads the newest size).
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

-- activate sets a document's active scenario in a session (keys:
-- active, journal number; arguments: the document, the name). The key
-- holds the name alone for the document "" (a mock of one), else a NUL
-- and a JSON object of each document's name (see activeOf), of which
-- activate changes the document's alone. subscribe sets a webhook's
-- subscriber (keys: hooks, journal number; arguments: name, data).
function ops.activate(k, a)
  local key, doc, name = KEYS[k + 1], ARGV[a + 1], ARGV[a + 2]
  if doc == "" then
    redis.call("SET", key, name)
  else
    local cur, m = redis.call("GET", key), {}
    if cur and string.byte(cur, 1) == 0 then m = cjson.decode(string.sub(cur, 2)) end
    m[doc] = name
    redis.call("SET", key, "\0" .. cjson.encode(m))
  end
  inherit(key, KEYS[k + 2])
  return 1
end

function ops.subscribe(k, a)
  redis.call("HSET", KEYS[k + 1], ARGV[a + 1], ARGV[a + 2])
  inherit(KEYS[k + 1], KEYS[k + 2])
  return 1
end

`

// resetJournalScript empties a session's journal and sets its number
// back to 0, keeping its TTL, when it exists. KEYS: journal, journal
// number, journal weight.
var resetJournalScript = redisstore.NewScript(`
redis.call("DEL", KEYS[1], KEYS[3])
redis.call("SET", KEYS[2], "0", "XX", "KEEPTTL")
return 1
`)

// newestScript answers the newest ARGV[1] records of a session's
// journal, oldest first, as {number, record, number, record, ...}.
// KEYS: journal.
var newestScript = redisstore.NewScript(`
local msgs = redis.call("XREVRANGE", KEYS[1], "+", "-", "COUNT", ARGV[1])
local out = {}
for i = #msgs, 1, -1 do
  local f, s, d = msgs[i][2], "", ""
  for j = 1, #f, 2 do
    if f[j] == "s" then s = f[j + 1] elseif f[j] == "d" then d = f[j + 1] end
  end
  out[#out + 1] = s
  out[#out + 1] = d
end
return out
`)
