#pragma once
// What the simulated PSP reports when a test's payer pays.
#include "domain/payments/collections.h"

namespace fake_org::testing {

// A Visa card ending 4242, valid until 12/2030.
inline PspOutcome visa_paid() {
  PspOutcome paid;
  paid.card_brand = "Visa";
  paid.last_four = "4242";
  paid.expiry_month = 12;
  paid.expiry_year = 2030;
  return paid;
}

}  // namespace fake_org::testing
