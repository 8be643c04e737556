#include "currency.h"

#include <catch2/catch.hpp>

using fake_org::currency_minor_units;
using fake_org::is_iso4217;

TEST_CASE("minor units of common and unusual currencies", "[currency]") {
  CHECK(currency_minor_units("EUR") == 2);
  CHECK(currency_minor_units("USD") == 2);
  CHECK(currency_minor_units("GBP") == 2);
  CHECK(currency_minor_units("SEK") == 2);
  CHECK(currency_minor_units("JPY") == 0);
  CHECK(currency_minor_units("KRW") == 0);
  CHECK(currency_minor_units("ISK") == 0);
  CHECK(currency_minor_units("KWD") == 3);
  CHECK(currency_minor_units("BHD") == 3);
  CHECK(currency_minor_units("TND") == 3);
  CHECK(currency_minor_units("CLF") == 4);
  CHECK(currency_minor_units("UYW") == 4);
}

TEST_CASE("codes without minor units are known but not payable", "[currency]") {
  CHECK(is_iso4217("XAU"));
  CHECK(is_iso4217("XXX"));
  CHECK_FALSE(currency_minor_units("XAU").has_value());
  CHECK_FALSE(currency_minor_units("XDR").has_value());
}

TEST_CASE("unknown, withdrawn and badly written codes are refused", "[currency]") {
  for (const char* bad : {"", "EU", "EURO", "eur", "Eur", "ABC", "HRK", "DEM", " EUR", "EUR "}) {
    INFO(bad);
    CHECK_FALSE(is_iso4217(bad));
    CHECK_FALSE(currency_minor_units(bad).has_value());
  }
}

TEST_CASE("lookup works on views that are not NUL-terminated", "[currency]") {
  std::string_view text = "JPYEUR";
  CHECK(currency_minor_units(text.substr(0, 3)) == 0);
  CHECK(currency_minor_units(text.substr(3, 3)) == 2);
}
