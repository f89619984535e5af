-- wrk over many workspaces' tokens (`npm run bench:tenants`): each request takes the next
-- token of TOKENS_FILE (one a line), round robin. METHOD (default GET) and TARGET (the
-- path) for every request; with BODY, a JSON body.
local tokens = {}
for line in io.lines(os.getenv("TOKENS_FILE")) do
  if line ~= "" then tokens[#tokens + 1] = "Bearer " .. line end
end
local method = os.getenv("METHOD") or "GET"
local target = os.getenv("TARGET")
local body = os.getenv("BODY")
local i = 0

function request()
  i = i % #tokens + 1
  local headers = { ["Authorization"] = tokens[i] }
  if body then headers["Content-Type"] = "application/json" end
  return wrk.format(method, target, headers, body)
end

