-- wrk script: POST /PaymentIntent with a new payer each time (so every request
-- creates a contact, an installment and an inbound report, and deduplication
-- looks up a key it has not seen). The token comes from the environment:
--   TOKEN=... wrk -t2 -c16 -d5s --latency -s bench/post_payment_intent.lua \
--     http://127.0.0.1:PORT/services/apexrest/cpm/v2/PaymentIntent
local token = os.getenv("TOKEN") or error("set TOKEN to an access token")
local n = 0
request = function()
  n = n + 1
  local id = string.format("%d-%d", math.random(1, 1e9), n)
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
