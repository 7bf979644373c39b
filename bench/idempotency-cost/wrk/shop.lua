-- wrk script for bench/idempotency-cost/wrk/measure.sh: one shape of POST /api/v1/orders per run,
-- chosen by WRK_SHAPE, every answer checked.
--
--   keyed    a new Idempotency-Key per request (never used before)     -> 201, not replayed
--   unkeyed  the same request without the header                        -> 201
--   replay   a key of the pool in WRK_POOL (one per line), round robin  -> 201, Idempotent-Replayed: true
--
-- WRK_AUTH is the Authorization header's value. done() prints one line that measure.sh parses:
--   RESULT requests=.. seconds=.. good=.. bad=.. first_bad=.. mean_us=.. p50_us=.. p99_us=.. socket_errors=..
local shape = os.getenv("WRK_SHAPE") or "keyed"
local auth = os.getenv("WRK_AUTH")
local body = '{"currency":"VND","items":[{"sku":"S-1","quantity":1,"unitPrice":1000}]}'

local threads = {}
local next_thread = 0

function setup(thread)
  next_thread = next_thread + 1
  thread:set("thread_number", next_thread)
  table.insert(threads, thread)
end

local pool = {}
local counter = 0
local run_id

function init(args)
  good, bad, first_bad = 0, 0, ""
  -- A key unique to this run and thread: the run's random part, the thread, a counter.
  math.randomseed(os.time() * 1000 + thread_number)
  run_id = string.format("%08x-%04x", math.random(0, 0x7fffffff), thread_number)
  if shape == "replay" then
    for line in io.lines(os.getenv("WRK_POOL")) do
      if #line > 0 then table.insert(pool, line) end
    end
    -- Threads start at different places of the pool.
    counter = (thread_number - 1) * 97
  end
end

function request()
  counter = counter + 1
  local headers = { ["Authorization"] = auth, ["Content-Type"] = "application/json" }
  if shape == "keyed" then
    headers["Idempotency-Key"] = string.format("%s-4000-8000-%012x", run_id, counter)
  elseif shape == "replay" then
    headers["Idempotency-Key"] = pool[(counter % #pool) + 1]
  end
  return wrk.format("POST", "/api/v1/orders", headers, body)
end

function response(status, headers, _)
  local replayed = false
  for name, value in pairs(headers) do
    if string.lower(name) == "idempotent-replayed" and value == "true" then replayed = true end
  end
  if status == 201 and replayed == (shape == "replay") then
    good = good + 1
  else
    bad = bad + 1
    if first_bad == "" then first_bad = status .. (replayed and "+replayed" or "") end
  end
end

function done(summary, latency, requests)
  local g, b, fb = 0, 0, ""
  for _, thread in ipairs(threads) do
    g = g + thread:get("good")
    b = b + thread:get("bad")
    if fb == "" then fb = thread:get("first_bad") end
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f good=%d bad=%d first_bad=%s mean_us=%.1f p50_us=%d p99_us=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, g, b, fb == "" and "-" or fb,
    latency.mean, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout + e.status))
end
