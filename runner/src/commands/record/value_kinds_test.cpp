// Generated-value detection: the ids every org makes up (prefixed tokens,
// autonumbers) are told apart from the enum values a client branches on.
#include <catch2/catch.hpp>

#include "commands/record/value_kinds.h"

using namespace runner::record;

TEST_CASE("prefixed high-entropy tokens and autonumbers are generated values", "[record]") {
  for (const char* v :
       {"cs_wwcu6krq7ivcgp9a701731vr", "evt_1t8gu3ql2nly9xdgsg7gwhc0", "tok_tr2gfpkfb407zaa0brge",
        "psp_2li73lndplrrgeytd57o", "CPM-ckx172ptc0dqcwky", "ch_3NkQ2x2eZvKYlo2C1abc",
        "tok_qwrtzpsdfghjklxcvb"}) {
    INFO(v);
    CHECK(classify("", v) == ValueKind::kOpaqueId);
    CHECK(is_generated(classify("", v)));
    CHECK_FALSE(is_enum_like("Status", v));
  }
  for (const char* v : {"CPM-000123", "PI-0001", "INV-20261123"}) {
    INFO(v);
    CHECK(classify("Name", v) == ValueKind::kAutoNumber);
    CHECK_FALSE(is_enum_like("Name", v));
  }
  // Words, codes and names with a number stay enums.
  for (const char* v :
       {"Bank_Transfer1", "cpm_PaymentMethodNames", "Direct_Debit", "ERR-200", "SEPA-DD",
        "card_payment", "payment_intent.succeeded", "Credit Card", "Outstanding", "v2_beta"}) {
    INFO(v);
    CHECK(classify("Status", v) == ValueKind::kPlain);
    CHECK(is_enum_like("Status", v));
  }
}

TEST_CASE("matchers keep the prefix, generated values are found inside text", "[record]") {
  CHECK(value_regex(ValueKind::kOpaqueId, "cs_wwcu6krq7ivcgp9a701731vr") == "^cs_[A-Za-z0-9]+$");
  CHECK(value_regex(ValueKind::kAutoNumber, "CPM-000123") == "^CPM-[0-9]+$");
  CHECK(value_regex(ValueKind::kGuid, "x") == kind_regex(ValueKind::kGuid));
  auto found = generated_values_in(
      "https://org.example/pay/cs_wwcu6krq7ivcgp9a701731vr?event=evt_1t8gu3ql2nly9xdgsg7gwhc0 "
      "for CPM-000123");
  REQUIRE(found.size() == 3);
  CHECK(found[0] == "cs_wwcu6krq7ivcgp9a701731vr");
  CHECK(found[1] == "evt_1t8gu3ql2nly9xdgsg7gwhc0");
  CHECK(found[2] == "CPM-000123");
  CHECK(classify("", "https://org.example/pay/cs_wwcu6krq7ivcgp9a701731vr") ==
        ValueKind::kUrlWithId);
}

TEST_CASE("values that differ per run but share a shape normalise to one", "[record]") {
  CHECK(normalise_generated("Ref ckx172ptc0dqcwky") == normalise_generated("Ref xlv1pcj73xkvctz0"));
  CHECK(normalise_generated("cs_wwcu6krq7ivcgp9a701731vr") ==
        normalise_generated("cs_km03udxsu4t4ztlq28q8717u"));
  CHECK(normalise_generated("Outstanding") == "Outstanding");
  CHECK(normalise_generated("Ref Alpha") != normalise_generated("Ref Omega"));
  CHECK(high_entropy("ckx172ptc0dqcwky"));
  CHECK(high_entropy("qwrtzpsdfghjklxcvb"));  // random letters only
  CHECK_FALSE(high_entropy("Transfer1"));
  CHECK_FALSE(high_entropy("PaymentMethodNames"));
  CHECK_FALSE(high_entropy("abc1"));
}

TEST_CASE("tokens that read like words still share a shape across runs", "[record]") {
  // One digit at an end and no four-consonant run: high_entropy() may miss it.
  CHECK(shape_of("psp_hqhqzbcoycszbtxfak92") == shape_of("psp_7rpgcwpytabodjafvzpo"));
  CHECK(shape_of("psp_hqhqzbcoycszbtxfak92") == "psp_<20>");
  // Camel-case names keep their letters, so a real enum difference shows.
  CHECK(shape_of("PartiallyPaid") != shape_of("Uncollectible"));
  CHECK(shape_of("Outstanding") == "Outstanding");
  // All letters, no four-consonant run: long lower-case runs are tokens too.
  CHECK(high_entropy("qezaponizbamcayisvfu"));
  CHECK(classify("Name", "psp_qezaponizbamcayisvfu") == ValueKind::kOpaqueId);
  CHECK_FALSE(high_entropy("outstanding"));
  CHECK_FALSE(high_entropy("PartiallyPaidInstallment"));
}

TEST_CASE("card numbers inside text: Luhn-valid runs and printed groups, not parts of ids",
          "[record]") {
  using V = std::vector<std::string>;
  CHECK(card_numbers_in("card 4111111111111111") == V{"4111111111111111"});
  CHECK(card_numbers_in("paid with 4111 1111 1111 1111, thanks") == V{"4111 1111 1111 1111"});
  CHECK(card_numbers_in("Amex 3782-822463-10005") == V{"3782-822463-10005"});
  CHECK(card_numbers_in("order 12 4111111111111111 ok") == V{"4111111111111111"});
  CHECK(card_numbers_in("4111111111111111 and 5555555555554444") ==
        V{"4111111111111111", "5555555555554444"});
  CHECK(card_numbers_in("card 4111111111111112").empty());     // fails Luhn
  CHECK(card_numbers_in("card 4111 1111-1111 1111").empty());  // mixed separators
  CHECK(card_numbers_in("psp_4111111111111111").empty());
  CHECK(card_numbers_in("6f1c2d3e-1111-4222-8333-411111111117").empty());  // a GUID
  CHECK(card_numbers_in("ref 411111111117") == V{"411111111117"});  // the same 12 digits alone
  CHECK(card_numbers_in("Amount 25, ref 12345").empty());
}
