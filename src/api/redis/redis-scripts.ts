/**
 * The Lua scripts of the shared limiter. Each runs atomically in Redis, so "check every window and
 * the day, then take a slot and a request of the day" is one step for every process on the token.
 *
 * The rule is SlidingWindowLimiter's, kept exactly: per window key, a sorted set of release stamps
 * (`w:`) and a sorted set of admitted, unreleased permits (`f:`, scored by when their lease ends).
 * A request is admitted iff, for every rule, (limit - in flight) > 0 and fewer than that many
 * stamps lie in (now - window - margin, now]. An in-flight permit counts as "just arrived" until it
 * is released (stamped at its release time, never before the previous stamp) or cancelled (no
 * stamp: it never reached the server). A holder that crashed never releases: its lease (the longest
 * a request can take) ends, and the slot is freed then, becoming a stamp at the lease's end (the
 * service may have counted the request, and a window longer than the lease still holds it).
 *
 * Time: ARGV[1] is the caller's clock (tests with a virtual clock), or '' for Redis TIME, one clock
 * for every host.
 *
 * The restart guard: a Redis that lost its memory (restarted without persistence) no longer knows
 * the stamps and in-flight requests of the last minute. The first admission to find no `epoch` key
 * stores the server's start instant (the latest it can be: the uptime counts whole seconds, and an
 * instant before the real start would reopen a window too soon); every window then stays closed until that
 * instant + max(window, lease): a window can only reopen once everything it forgot has left it. On a
 * Redis that has been up longer than that (the usual case, and a first run), this costs nothing.
 *
 * The day: a hash per quota day with `used` (every process) and one field per process (what that
 * process charged today). After a restart the hash is gone; each process's next call re-adds its own
 * count before anything is checked, so the rebuilt total is the sum of what the running processes
 * sent today (see README, "Sharing one plan between processes").
 */

/** Shared preamble: the time source. */
const NOW = `
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[1])
end
`;

/**
 * KEYS: epoch, day, then per rule its stamps (w:) and in-flight (f:) sets.
 * ARGV: now|'', permit id, leaseMs, marginMs, day limit (-1: none), process field, own count today,
 * day ttl ms, (unused), quota zone, day reset (ms), then per rule: limit, windowMs.
 * Returns {0, now, used} admitted; {1, now, retryAt} wait until then; {2, now, used} the day is used
 * up; {3, now, leaseEnd} only in-flight requests fill a window: wait for a release (published on the
 * token's channel), at the latest until the oldest lease ends; {4, now, retryAt} as 1, the wait
 * being the restart guard's (the caller says so: a first minute of silence looks like a hang).
 */
export const ADMIT_LUA = `${NOW}
local permit = ARGV[2]
local lease = tonumber(ARGV[3])
local margin = tonumber(ARGV[4])
local dayLimit = tonumber(ARGV[5])
local field = ARGV[6]
local own = tonumber(ARGV[7])
local dayTtl = tonumber(ARGV[8])
local zone = ARGV[10]
local resetAt = ARGV[11]

local guard = redis.call('GET', KEYS[1])
if not guard then
  local info = redis.call('INFO', 'server')
  local up = tonumber(string.match(info, 'uptime_in_seconds:(%d+)')) or 0
  -- The uptime is a difference of whole seconds: the start lies before now - (uptime - 1 s), and
  -- never after now. The latest instant it can be (a later guard only holds longer).
  guard = now - math.max(up - 1, 0) * 1000
  redis.call('SET', KEYS[1], tostring(guard))
else
  guard = tonumber(guard)
end

local used = 0
if dayLimit >= 0 then
  if redis.call('HEXISTS', KEYS[2], 'limit') == 0 then
    -- What \`quotelake quota --coordinator\` shows beside the counts.
    redis.call('HSET', KEYS[2], 'limit', dayLimit, 'zone', zone, 'resetAt', resetAt)
    redis.call('PEXPIRE', KEYS[2], dayTtl)
  end
  if own > 0 and redis.call('HEXISTS', KEYS[2], field) == 0 then
    redis.call('HINCRBY', KEYS[2], 'used', own)
    redis.call('HSET', KEYS[2], field, own)
    redis.call('PEXPIRE', KEYS[2], dayTtl)
  end
  used = tonumber(redis.call('HGET', KEYS[2], 'used') or '0')
  if used >= dayLimit then
    return {2, now, used}
  end
end

local earliest = now
local guarded = false
local blocked = nil
local rules = (#KEYS - 2) / 2
for i = 1, rules do
  local limit = tonumber(ARGV[10 + 2 * i])
  local window = tonumber(ARGV[11 + 2 * i])
  local stamps = KEYS[1 + 2 * i]
  local flight = KEYS[2 + 2 * i]
  local reopen = guard + math.max(window, lease) + margin
  if reopen > earliest then
    earliest = reopen
    guarded = true
  end
  -- A permit whose lease ended was never released: its holder died mid-request. The service may
  -- still have counted it (it arrived before the lease ended), so it leaves the in-flight set as a
  -- stamp at its lease's end, never as nothing: a window longer than the lease (a minute, a gap)
  -- keeps counting it for as long as the service can.
  local expired = redis.call('ZRANGEBYSCORE', flight, '-inf', now, 'WITHSCORES')
  if #expired > 0 then
    for j = 1, #expired, 2 do
      redis.call('ZADD', stamps, tonumber(expired[j + 1]), expired[j])
    end
    redis.call('PEXPIRE', stamps, window + margin + 1000)
    redis.call('ZREMRANGEBYSCORE', flight, '-inf', now)
  end
  local room = limit - redis.call('ZCARD', flight)
  if room <= 0 then
    -- Only a release (or the oldest lease's end) frees it: nobody knows when.
    local first = redis.call('ZRANGE', flight, 0, 0, 'WITHSCORES')
    local ends = tonumber(first[2])
    if blocked == nil or ends < blocked then blocked = ends end
  else
    redis.call('ZREMRANGEBYSCORE', stamps, '-inf', now - window - margin)
    local count = redis.call('ZCARD', stamps)
    if count >= room then
      local pivot = redis.call('ZRANGE', stamps, count - room, count - room, 'WITHSCORES')
      local at = tonumber(pivot[2]) + window + margin
      if at > earliest then
        earliest = at
        guarded = false
      end
    end
  end
end
if earliest > now then
  if guarded then return {4, now, earliest} end
  return {1, now, earliest}
end
if blocked ~= nil then
  return {3, now, blocked}
end

if dayLimit >= 0 then
  redis.call('HINCRBY', KEYS[2], 'used', 1)
  redis.call('HINCRBY', KEYS[2], field, 1)
  redis.call('PEXPIRE', KEYS[2], dayTtl)
  used = used + 1
end
for i = 1, rules do
  local flight = KEYS[2 + 2 * i]
  local window = tonumber(ARGV[11 + 2 * i])
  redis.call('ZADD', flight, now + lease, permit)
  -- Kept a window past the lease, so an admission then still finds a dead holder's permit and stamps it.
  redis.call('PEXPIRE', flight, lease + window + margin + 1000)
end
return {0, now, used}
`;

/**
 * KEYS: per rule its stamps (w:) and in-flight (f:) sets.
 * ARGV: now|'', permit id, marginMs, cancel (1: no stamp), release channel, then per rule: limit, windowMs.
 * Publishes on the channel, so waiters of every process ask again at once.
 */
export const RELEASE_LUA = `${NOW}
local permit = ARGV[2]
local margin = tonumber(ARGV[3])
local cancel = ARGV[4] == '1'
local rules = #KEYS / 2
for i = 1, rules do
  local limit = tonumber(ARGV[4 + 2 * i])
  local window = tonumber(ARGV[5 + 2 * i])
  local stamps = KEYS[2 * i - 1]
  local flight = KEYS[2 * i]
  redis.call('ZREM', flight, permit)
  if not cancel then
    local stamp = now
    local last = redis.call('ZRANGE', stamps, -1, -1, 'WITHSCORES')
    if last[2] and tonumber(last[2]) > stamp then stamp = tonumber(last[2]) end
    redis.call('ZADD', stamps, stamp, permit)
    redis.call('ZREMRANGEBYSCORE', stamps, '-inf', now - window - margin)
    local count = redis.call('ZCARD', stamps)
    if count > limit then redis.call('ZREMRANGEBYRANK', stamps, 0, count - limit - 1) end
    redis.call('PEXPIRE', stamps, window + margin + 1000)
  end
end
redis.call('PUBLISH', ARGV[5], '1')
return 1
`;

/**
 * The day's count. KEYS: day. ARGV: op, process field, day limit, day ttl ms.
 * op 'refund': one charged request was not counted by the service (never sent, or a 429);
 * 'unknown': one was sent and its answer lost (stays charged, counted apart);
 * 'exhausted': the service said the day is used up: used = max(used, limit).
 */
export const DAY_LUA = `
local op = ARGV[1]
local field = ARGV[2]
if op == 'refund' then
  local mine = tonumber(redis.call('HGET', KEYS[1], field) or '0')
  if mine > 0 then
    redis.call('HINCRBY', KEYS[1], field, -1)
    redis.call('HINCRBY', KEYS[1], 'used', -1)
  end
elseif op == 'unknown' then
  redis.call('HINCRBY', KEYS[1], 'unknown', 1)
elseif op == 'exhausted' then
  local used = tonumber(redis.call('HGET', KEYS[1], 'used') or '0')
  local limit = tonumber(ARGV[3])
  if used < limit then redis.call('HSET', KEYS[1], 'used', limit) end
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return 1
`;
