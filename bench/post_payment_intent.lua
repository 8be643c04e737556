-- wrk script: POST /PaymentIntent with a new payer each time (so every request
-- creates a contact, an installment and an inbound report, and deduplication
-- looks up a key it has not seen). The token comes from the environment:
--   TOKEN=... wrk -t2 -c16 -d5s --latency -s bench/post_payment_intent.lua \
--     http://127.0.0.1:PORT/services/apexrest/cpm/v2/PaymentIntent
local token = os.getenv("TOKEN") or error("set TOKEN to an access token")

-- Every thread's Lua starts math.random from the same seed, and every run
-- from the same one again: payers must differ between threads (each thread
-- is numbered by setup()) and between runs (a nonce from the kernel).
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

local prefix
init = function()
  local f = assert(io.open("/dev/urandom", "rb"))
  local bytes = f:read(6)
  f:close()
  local nonce = 0
  for i = 1, #bytes do nonce = nonce * 256 + bytes:byte(i) end
  prefix = string.format("%x-%d", nonce, thread_number or 0)
end

local n = 0
request = function()
  n = n + 1
  local id = string.format("%s-%d", prefix, n)
  local body = string.format(
    '{"SuccessURL":"https://shop.example/ok","FailureURL":"https://shop.example/ko",' ..
    '"Payer":{"Contact":{"CrmFields":{"FirstName":"W","LastName":"Bench%s","Email":"w%s@example.org"}}},' ..
    '"OneTime":{"Amount":5},"PaymentMethod":{"Name":"CreditCard"}}', id, id)
  return wrk.format("POST", nil,
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end

-- A run whose requests failed is no measurement.
done = function(summary, latency, requests)
  if summary.errors.status > 0 then
    io.stderr:write(string.format("%d non-2xx answers\n", summary.errors.status))
  end
end
