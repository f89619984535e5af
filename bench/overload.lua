-- `npm run bench:overload`'s load with wrk: the paths of PATHS (a file, one a line) in turn,
-- METHOD, BODY and TOKEN from the environment, on rate.lua's schedule of RATE requests a
-- second (RATE unset: as fast as the connections go, a closed loop). Counts each answer by
-- status (and the 503s that say Retry-After) and prints them as one line at the end.
dofile("bench/rate.lua")
if os.getenv("RATE") == nil then
  delay = nil
end

local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local method = os.getenv("METHOD") or "GET"
local body = os.getenv("BODY")
local headers = { ["authorization"] = "Bearer " .. os.getenv("TOKEN") }
if body then headers["content-type"] = "application/json" end
local i = 0

request = function()
  i = i + 1
  return wrk.format(method, paths[(i % #paths) + 1], headers, body)
end

ok = 0; shed = 0; shedRetry = 0; limited = 0; other = 0
response = function(status, hdrs)
  if status == 200 then ok = ok + 1
  elseif status == 503 then
    shed = shed + 1
    if hdrs["Retry-After"] then shedRetry = shedRetry + 1 end
  elseif status == 429 then limited = limited + 1
  else other = other + 1 end
end

local threads = {}
function setup(thread) threads[#threads + 1] = thread end

function done(summary, latency)
  local t = threads[1]
  io.write(string.format(
    "overload: 200=%d 503=%d retry=%d 429=%d other=%d timeout=%d connect=%d read=%d write=%d p50=%.1f p99=%.1f seconds=%.3f\n",
    t:get("ok"), t:get("shed"), t:get("shedRetry"), t:get("limited"), t:get("other"),
    summary.errors.timeout, summary.errors.connect, summary.errors.read, summary.errors.write,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.duration / 1e6))
end
