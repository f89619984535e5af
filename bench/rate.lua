-- wrk at a fixed request rate (what wrk2 does): every request gets a slot on one schedule
-- of RATE requests/s shared by the thread's connections, and a connection waits for its
-- slot before sending (wrk's delay(), whole milliseconds). A connection that falls behind
-- sends at once, so the rate is kept while the server keeps up. Latencies are wrk's own,
-- from the send: not corrected for coordinated omission as wrk2's are. RATE from the
-- environment; one thread (-t1).
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } timespec;
  int clock_gettime(int clk_id, timespec *tp);
]]
local ts = ffi.new("timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local interval = 1000 / tonumber(os.getenv("RATE") or "1000")
local next_at = nil

function delay()
  local t = now_ms()
  if next_at == nil or next_at < t - 50 then next_at = t end
  next_at = next_at + interval
  local wait = next_at - t
  if wait < 1 then return 0 end
  return math.floor(wait)
end
