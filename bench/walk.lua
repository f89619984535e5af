-- A sequential cursor walk of GET /v2/people?limit=100 driven by wrk (one connection):
-- each response's nextCursor makes the next request; at the end the walk starts over.
-- Reports the records read, so the figure is records/s of full walks.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  cursor = nil
  records = 0
  walks = 0
end

function request()
  local path = "/v2/people?limit=100"
  if cursor then path = path .. "&cursor=" .. cursor end
  return wrk.format("GET", path)
end

function response(status, headers, body)
  if status ~= 200 then
    cursor = nil
    return
  end
  local _, n = body:gsub('"organizationId":', "")
  records = records + n
  cursor = body:match('"nextCursor":"([^"]+)"}}$')
  if not cursor then walks = walks + 1 end
end

function done(summary, latency, requests)
  local total, full = 0, 0
  for _, t in ipairs(threads) do
    total = total + t:get("records")
    full = full + t:get("walks")
  end
  io.write(string.format("walk: records=%d walks=%d seconds=%.3f\n", total, full, summary.duration / 1e6))
end
