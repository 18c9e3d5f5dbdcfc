/**
 * The Lua scripts of the Redis replay store. Each runs atomically on the
 * server, which is what the `ReplayStore` contract asks of `claim` (a
 * test-and-set), `commit` (a use that outlives a lapsed lease) and
 * `release` (drops a lease, never a commit).
 *
 * Keys: `<prefix>t:<id>` holds `lease:<owner>` or `used:<owner>` with a
 * relative expiry (PX, so the Redis clock times it, not each instance's);
 * `<prefix>o:<owner>` is a sorted set of the owner's live ids, scored by
 * when each ends (instance clock, ms), for the per-owner quota;
 * `<prefix>epoch` holds the time (instance clock, seconds) since which this
 * Redis holds every token: written once by the first instance that finds it
 * missing, so a Redis that restarted empty (no persistence) gets a new one,
 * and tokens issued before it are refused rather than trusted.
 *
 * @module
 * @internal
 */

/**
 * epoch(KEYS[1] epoch key) ARGV: now s. Sets the epoch when it is missing;
 * returns it.
 * @internal
 */
export const EPOCH = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`;

/**
 * claim(KEYS[1] token key, KEYS[2] owner set, KEYS[3] epoch key) ARGV: now
 * ms, hold ms, end ms, state ("lease" | "used"), owner, id, max per owner,
 * now s. Returns { 1 taken, 0 held or spent, -1 over the owner's quota;
 * the epoch (set to now when missing) }.
 * @internal
 */
export const CLAIM = `
local epoch = redis.call('GET', KEYS[3])
if not epoch then
  epoch = ARGV[8]
  redis.call('SET', KEYS[3], epoch)
end
if redis.call('EXISTS', KEYS[1]) == 1 then return { 0, epoch } end
local now = tonumber(ARGV[1])
local hold = tonumber(ARGV[2])
if hold <= 0 then return { 0, epoch } end
local limit = tonumber(ARGV[7])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if limit > 0 and redis.call('ZCARD', KEYS[2]) >= limit then return { -1, epoch } end
redis.call('SET', KEYS[1], ARGV[4] .. ':' .. ARGV[5], 'PX', hold)
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[6])
local ttl = redis.call('PTTL', KEYS[2])
if ttl < hold then redis.call('PEXPIRE', KEYS[2], hold) end
return { 1, epoch }
`;

/**
 * commit(KEYS[1] token key) ARGV: hold ms, end ms, id, owner-set prefix.
 * Spent until the end whatever the lease did (lapsed, or never recorded).
 * @internal
 */
export const COMMIT = `
local hold = tonumber(ARGV[1])
if hold <= 0 then return 0 end
local value = redis.call('GET', KEYS[1])
local owner = ''
if value then owner = string.match(value, '^%a+:(.*)$') or '' end
redis.call('SET', KEYS[1], 'used:' .. owner, 'PX', hold)
local set = ARGV[4] .. owner
if redis.call('ZSCORE', set, ARGV[3]) then
  redis.call('ZADD', set, ARGV[2], ARGV[3])
  local ttl = redis.call('PTTL', set)
  if ttl < hold then redis.call('PEXPIRE', set, hold) end
end
return 1
`;

/**
 * release(KEYS[1] token key) ARGV: id, owner-set prefix. Drops a lease; a
 * commit stays.
 * @internal
 */
export const RELEASE = `
local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local owner = string.match(value, '^lease:(.*)$')
if not owner then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', ARGV[2] .. owner, ARGV[1])
return 1
`;
