// New recurring payment and update of an existing one (spec 2.5, 4.1).
#include "payment_intent_ops.h"

namespace fake_org {

Result<IntentResult> new_recurring_payment(OperationContext&) {
  return make_error(error_code::kUncategorised, "Recurring",
                    "Recurring payments are not available in this build of the fake org yet");
}

Result<IntentResult> update_recurring_payment(OperationContext&) {
  return make_error(
      error_code::kUncategorised, "Recurring.Id",
      "Updating recurring payments is not available in this build of the fake org yet");
}

}  // namespace fake_org
