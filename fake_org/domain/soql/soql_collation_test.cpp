// SOQL's text collation: case folded beyond ASCII, ordered by upper case.
#include <catch2/catch.hpp>

#include "domain/store/record_store.h"
#include "soql_collation.h"
#include "testing/soql_records.h"

using namespace fake_org;
using namespace fake_org::testing;

TEST_CASE("the collation folds case beyond ASCII and orders by upper case", "[soql]") {
  CHECK(soql::collate("ZÜRICH", "Zürich") == 0);
  CHECK(soql::collate("ÉCOLE", "école") == 0);
  CHECK(soql::collate("Αθήνα", "ΑΘΉΝΑ") == 0);
  CHECK(soql::collate("москва", "МОСКВА") == 0);
  CHECK(soql::collate("łódź", "ŁÓDŹ") == 0);
  // Upper-cased: 'a' (as 'A') before 'Z', 'Z' before '[' and '_'.
  CHECK(soql::collate("a", "Z") < 0);
  CHECK(soql::collate("Z", "[") < 0);
  CHECK(soql::collate("z", "_") < 0);
  CHECK(soql::collate("ab", "abc") < 0);
  CHECK(soql::collate("Zürich", "Zurich") > 0);
  // Nothing beyond ASCII folds into ASCII, so ASCII-folding indexes stay exact.
  CHECK(soql::collation_upper(U'\u0131') == U'\u0131');
  CHECK(soql::collation_upper(U'\u017F') == U'\u017F');
  // Bytes that are not UTF-8 compare as themselves rather than failing.
  CHECK(soql::collate("\xC3", "\xC3") == 0);
  CHECK(soql::collate("a\xFF", "A\xFF") == 0);
}

TEST_CASE("WHERE and ORDER BY compare text by the collation", "[soql]") {
  SoqlOrg org;
  const TimePoint t = at("2027-03-01T09:00:00Z");
  org.add({record("Contact", testing::new_id("003", 990), {{"LastName", "Zürich"}}, t),
           record("Contact", testing::new_id("003", 991), {{"LastName", "école"}}, t),
           record("Contact", testing::new_id("003", 992), {{"LastName", "[bracket]"}}, t),
           record("Contact", testing::new_id("003", 993), {{"LastName", "alpha"}}, t),
           record("Contact", testing::new_id("003", 994),
                  {{"LastName", "Émile"}, {"Email", "émile@example.org"}}, t)});
  auto names = [&](const std::string& soql) {
    auto page = org.query(soql);
    REQUIRE(page.ok());
    std::string out;
    for (const auto& r : page->records)
      out += (out.empty() ? "" : ",") + r["LastName"].get<std::string>();
    return out;
  };
  CHECK(names("SELECT LastName FROM Contact WHERE LastName = 'ZÜRICH'") == "Zürich");
  CHECK(names("SELECT LastName FROM Contact WHERE LastName LIKE 'ÉCOLE%'") == "école");
  CHECK(names("SELECT LastName FROM Contact WHERE LastName LIKE '_COLE'") == "école");
  CHECK(names("SELECT LastName FROM Contact WHERE LastName IN ('zürich', 'ÉCOLE') "
              "ORDER BY LastName") == "Zürich,école");
  CHECK(names("SELECT LastName FROM Contact WHERE LastName > 'Taylor' ORDER BY LastName") ==
        "Zürich,[bracket],école,Émile");
  CHECK(names("SELECT LastName FROM Contact WHERE LastName IN ('alpha', 'Zürich', '[bracket]') "
              "ORDER BY LastName") == "alpha,Zürich,[bracket]");
  // An indexed email field whose value leaves ASCII is not looked up in the
  // ASCII-folding index: it would miss the other case.
  auto page = org.query("SELECT LastName FROM Contact WHERE Email = 'ÉMILE@EXAMPLE.ORG'");
  REQUIRE(page.ok());
  REQUIRE(page->total_size == 1);
  CHECK(page->plan.kind == soql::QueryPlan::Kind::kScan);
  page = org.query("SELECT LastName FROM Contact WHERE Email = 'ADA@EXAMPLE.ORG'");
  REQUIRE(page.ok());
  CHECK(page->plan.kind == soql::QueryPlan::Kind::kIndex);
}
