#include "payer.h"

#include <initializer_list>
#include <optional>

#include "domain/config/crm_fields.h"
#include "payer_records.h"

namespace fake_org {

namespace {

using nlohmann::json;
using namespace payer_detail;

// One of Payer.Contact / Payer.Account as sent.
struct Block {
  const json* raw = nullptr;  // the block; null when absent
  std::string path;           // "Payer.Contact"
  RecordPtr existing;         // the record its Id names
  const json* crm = nullptr;  // its CrmFields, when given
  json fields = json::object();
  std::string record_type;  // Contact.RecordTypeName (the Account's is merged)
  bool present() const { return raw != nullptr; }
};

// "use one of A, B" or, for an object without record types, says so.
std::string record_type_hint(const ObjectDef& def) {
  std::string names;
  for (const auto& t : def.record_types) names += (names.empty() ? "" : ", ") + t.name;
  return names.empty() ? "this org defines no " + def.api_name + " record types"
                       : "use one of " + names;
}

const json* member(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

class Resolver {
 public:
  Resolver(PayerContext ctx, std::string_view path) : ctx_(ctx), path_(path) {
    contact_.path = path_ + ".Contact";
    account_.path = path_ + ".Account";
  }

  // A new contact without an account gets "<LastName> Household": the
  // org's setting, or the nonprofit package's rule (decisions 19).
  bool households() const {
    return ctx_.households || ctx_.config.org.contact_without_account == "household";
  }

  Result<PayerOutcome> run(const json& payer) {
    contact_def_ = ctx_.config.object(objects::kContact);
    account_def_ = ctx_.config.object(objects::kAccount);
    if (!contact_def_ || !account_def_)
      return make_error(error_code::kUncategorised, path_,
                        "The org defines no Contact or Account object; check the fixture");
    if (payer.is_null())
      return make_error(error_code::kMissingCoreParameter, path_,
                        path_ + " is required: give a Contact, an Account or both");
    if (!payer.is_object())
      return invalid(path_, path_ + " must be an object, not " + payer.type_name());
    // Every problem of the request is reported at once, so later steps run
    // after earlier failures wherever their input is still meaningful.
    parse(payer);
    decide_person();
    check_fields();
    if (!errors_.empty()) return errors_;
    Status s = person_ ? resolve_person() : resolve_business();
    if (!s.ok()) return s.errors();
    return out_;
  }

 private:
  ApiError invalid(const std::string& field, std::string message) {
    return make_error(error_code::kInvalidData, field, std::move(message));
  }
  void fail(const std::string& field, std::string message) {
    errors_.push_back(invalid(field, std::move(message)));
  }

  // ---- reading the block ------------------------------------------------------

  void check_keys(const json& obj, const std::string& where,
                  std::initializer_list<const char*> allowed) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool known = false;
      std::string list;
      for (const char* a : allowed) {
        known = known || it.key() == a;
        list += (list.empty() ? "" : ", ") + std::string(a);
      }
      if (!known)
        fail(where + "." + it.key(),
             where + "." + it.key() + " is not a field of " + where + "; expected " + list);
    }
  }

  std::optional<std::string> string_member(const json& obj, const char* key,
                                           const std::string& where) {
    const json* v = member(obj, key);
    if (!v) return std::nullopt;
    if (!v->is_string() || v->get_ref<const std::string&>().empty()) {
      fail(where + "." + key, where + "." + key + " must be a non-empty string");
      return std::nullopt;
    }
    return v->get<std::string>();
  }

  void parse(const json& payer) {
    check_keys(payer, path_, {"Contact", "Account", "AccountRecordTypeName", "AllowDeduplication"});
    if (const json* d = member(payer, "AllowDeduplication")) {
      if (d->is_boolean())
        allow_dedup_ = d->get<bool>();
      else
        fail(path_ + ".AllowDeduplication",
             path_ + ".AllowDeduplication must be true or false, got " + d->dump());
    }
    contact_.raw = member(payer, "Contact");
    account_.raw = member(payer, "Account");
    if (!contact_.present() && !account_.present()) {
      errors_.push_back(
          make_error(error_code::kMissingCoreParameter, path_,
                     path_ + " needs a Contact or an Account, each by Id or by CrmFields"));
      return;
    }
    size_t before = errors_.size();
    parse_record_type(payer);
    parse_block(account_, *account_def_);
    account_broken_ = errors_.size() > before;
    parse_block(contact_, *contact_def_);
  }

  // Payer.AccountRecordTypeName and Payer.Account.RecordTypeName name the same thing.
  void parse_record_type(const json& payer) {
    auto outer = string_member(payer, "AccountRecordTypeName", path_);
    std::optional<std::string> inner;
    if (account_.present() && account_.raw->is_object())
      inner = string_member(*account_.raw, "RecordTypeName", account_.path);
    if (outer && inner && *outer != *inner) {
      fail(account_.path + ".RecordTypeName", account_.path + ".RecordTypeName '" + *inner +
                                                  "' and " + path_ + ".AccountRecordTypeName '" +
                                                  *outer + "' disagree; send one of them");
      return;
    }
    if (!outer && !inner) return;
    std::string name = inner ? *inner : *outer;
    std::string field =
        inner ? account_.path + ".RecordTypeName" : path_ + ".AccountRecordTypeName";
    account_rt_ = account_def_->record_type(name);
    if (!account_rt_)
      fail(field, field + " '" + name + "' is not an Account record type of this org; " +
                      record_type_hint(*account_def_));
  }

  void parse_block(Block& b, const ObjectDef& def) {
    if (!b.present()) return;
    if (!b.raw->is_object()) {
      fail(b.path, b.path + " must be an object with Id or CrmFields, not " + b.raw->type_name());
      return;
    }
    check_keys(*b.raw, b.path, {"Id", "CrmFields", "RecordTypeName"});
    b.crm = member(*b.raw, "CrmFields");
    const json* id = member(*b.raw, "Id");
    if (!id && !b.crm) {
      errors_.push_back(make_error(
          error_code::kMissingCoreParameter, b.path,
          b.path + " needs an Id of an existing " + def.api_name + " or CrmFields for a new one"));
      return;
    }
    if (&b == &contact_) {
      if (auto rt = string_member(*b.raw, "RecordTypeName", b.path)) {
        if (def.record_type(*rt))
          b.record_type = *rt;
        else
          fail(b.path + ".RecordTypeName", b.path + ".RecordTypeName '" + *rt +
                                               "' is not a Contact record type of this org; " +
                                               record_type_hint(def));
      }
    }
    if (id) lookup(b, def, *id);
  }

  void lookup(Block& b, const ObjectDef& def, const json& id) {
    const std::string where = b.path + ".Id";
    if (!id.is_string()) {
      fail(where, where + " must be a record id string, not " + id.type_name());
      return;
    }
    const std::string& sent = id.get_ref<const std::string&>();
    auto id18 = to_id18(sent);
    if (!id18) {
      fail(where, where + " '" + sent +
                      "' is not a record id: expected 15 or 18 letters and digits with a valid "
                      "18-character suffix");
      return;
    }
    std::string prefix = id18->substr(0, 3);
    if (prefix != def.key_prefix) {
      std::string other = "an id with the prefix " + prefix;
      for (const auto& [name, o] : ctx_.config.objects)
        if (o.key_prefix == prefix) other = "an id of " + name;
      fail(where, where + " '" + sent + "' is " + other + ", not of " + def.api_name + " (" +
                      def.api_name + " ids begin with " + def.key_prefix + ")");
      return;
    }
    b.existing = ctx_.tx.get(*id18);
    if (!b.existing || b.existing->object != def.api_name) {
      b.existing = nullptr;
      errors_.push_back(make_error(error_code::kInvalidData, where,
                                   where + ": no " + def.api_name + " found with id '" + sent + "'",
                                   ErrorKind::kNotFound));
    }
  }

  // ---- person account or not (spec 2.2 rules 2 and 3) -------------------------

  const RecordTypeDef* account_record_type() const {
    return account_rt_ ? account_rt_ : account_def_->default_record_type();
  }

  void decide_person() {
    if (account_broken_) return;  // nothing sound to decide from
    if (account_.existing) {
      person_ = is_person_record(*account_.existing);
      if (account_rt_) {
        std::string stored = account_.existing->text("RecordTypeName");
        if ((!stored.empty() && stored != account_rt_->name) ||
            account_rt_->person_account != person_)
          fail(
              account_.path + ".RecordTypeName",
              account_.path + ".RecordTypeName: Account " + account_.existing->id + " is " +
                  (stored.empty() ? std::string(person_ ? "a person account" : "a business account")
                                  : "of record type " + stored) +
                  ", not of record type " + account_rt_->name);
      }
    } else if (account_.present()) {
      const RecordTypeDef* rt = account_record_type();
      person_ = rt && rt->person_account;
    } else if (account_rt_ && account_rt_->person_account) {
      // A Contact block with a person-account record type: the contact is the person.
      person_ = true;
      if (contact_.existing && !is_person_record(*contact_.existing))
        fail(contact_.path + ".Id",
             contact_.path + ".Id: Contact " + contact_.existing->id +
                 " is not a person account's contact, but " + path_ +
                 ".AccountRecordTypeName is the person-account record type " + account_rt_->name);
    } else if (account_rt_ && !households()) {
      fail(path_ + ".AccountRecordTypeName",
           path_ + ".AccountRecordTypeName '" + account_rt_->name +
               "' names a business record type, but the payer has no Account; add " + path_ +
               ".Account or leave the record type out");
    }
    if (person_ && account_.present() && contact_.present())
      fail(contact_.path, contact_.path +
                              ": a person account carries its own contact: send the person's "
                              "fields in " +
                              account_.path +
                              ".CrmFields (FirstName, LastName, PersonEmail, ...) and leave out " +
                              contact_.path);
  }

  void take(ApiErrors&& errors) {
    for (auto& e : errors) errors_.push_back(std::move(e));
  }

  void check_fields() {
    if (account_.crm && !account_broken_) {
      std::string where = account_.path + ".CrmFields";
      if (person_) {
        auto split = split_person_account_fields(*account_.crm, ctx_.config, where);
        account_.fields = std::move(split.account);
        person_fields_ = std::move(split.contact);
        take(std::move(split.errors));
      } else {
        auto c = check_crm_fields(*account_.crm, *account_def_, where, &ctx_.config);
        account_.fields = std::move(c.values);
        take(std::move(c.errors));
      }
    }
    if (contact_.crm && !(person_ && account_.present())) {
      std::string where = contact_.path + ".CrmFields";
      auto c = check_crm_fields(*contact_.crm, *contact_def_, where, &ctx_.config);
      contact_.fields = std::move(c.values);
      take(std::move(c.errors));
      if (contact_.fields.contains("AccountId"))
        fail(where + ".AccountId", where + ".AccountId cannot be set: the contact's account is " +
                                       account_.path + " (by Id or CrmFields)");
      if (person_) person_fields_ = contact_.fields;
    }
    if (person_ && account_.crm && person_fields_.contains("AccountId"))
      fail(account_.path + ".CrmFields.PersonAccountId",
           account_.path +
               ".CrmFields.PersonAccountId cannot be set: a person's account is the "
               "person account itself");
  }

  // ---- resolution --------------------------------------------------------------

  Status required(const json& fields, const char* field, const std::string& where,
                  const std::string& what) {
    if (fields.contains(field) && !fields[field].is_null()) return ok_status();
    return make_error(error_code::kMissingCoreParameter, where + "." + field,
                      where + "." + field + " is required to create " + what);
  }

  std::string create_account(json fields, const RecordTypeDef* rt, bool person) {
    if (rt) fields["RecordTypeName"] = rt->name;
    fields["IsPersonAccount"] = person;
    out_.account_created = true;
    return out_.account_id = create_record(ctx_, *account_def_, std::move(fields));
  }

  Status resolve_person() {
    out_.person_account = true;
    const Block& sent = account_.present() ? account_ : contact_;
    if (account_.existing) {
      out_.account_id = account_.existing->id;
      enrich(ctx_, out_.account_id, account_.fields);
      std::string contact_id = account_.existing->text("PersonContactId");
      if (!contact_id.empty() && ctx_.tx.get(contact_id)) use_person_contact(contact_id);
      return ok_status();
    }
    if (contact_.existing) {
      use_person_contact(contact_.existing->id);
      out_.account_id = contact_.existing->text("AccountId");
      return ok_status();
    }
    if (allow_dedup_) {
      DedupMatch m = find_duplicates(ctx_, objects::kContact, person_fields_, true);
      if (m.ids.size() == 1) {
        use_person_contact(m.ids.front());
        out_.contact_deduplicated = true;
        out_.account_id = ctx_.tx.get(out_.contact_id)->text("AccountId");
        if (!out_.account_id.empty()) {
          enrich(ctx_, out_.account_id, account_.fields);
          out_.account_deduplicated = true;
        }
        return ok_status();
      }
      if (m.ids.size() > 1) out_.review_reasons.push_back(several_matches_reason("Contact", m));
    }
    if (auto s = required(person_fields_, "LastName", sent.path + ".CrmFields", "a person account");
        !s.ok())
      return s;
    json account = account_.fields;
    account["Name"] = full_name(person_fields_);
    std::string account_id = create_account(std::move(account), account_record_type(), true);
    json contact = person_fields_;
    contact["Name"] = full_name(person_fields_);
    contact["AccountId"] = account_id;
    contact["IsPersonAccount"] = true;
    out_.contact_id = create_record(ctx_, *contact_def_, std::move(contact));
    out_.contact_created = true;
    Record a = ctx_.tx.edit(account_id);
    a.fields["PersonContactId"] = out_.contact_id;
    ctx_.tx.put(std::move(a));
    return ok_status();
  }

  // Enriches a person's contact and keeps the account's Name equal to the person's name.
  void use_person_contact(const std::string& contact_id) {
    out_.contact_id = contact_id;
    enrich(ctx_, contact_id, person_fields_);
    RecordPtr c = ctx_.tx.get(contact_id);
    std::string account_id = c->text("AccountId");
    RecordPtr a = account_id.empty() ? nullptr : ctx_.tx.get(account_id);
    if (a && !c->text("Name").empty() && a->text("Name") != c->text("Name")) {
      Record edited = *a;
      edited.fields["Name"] = c->text("Name");
      edited.modified = ctx_.now;
      ctx_.tx.put(std::move(edited));
    }
  }

  Status resolve_business() {
    if (account_.present())
      if (auto s = resolve_account(); !s.ok()) return s;
    if (contact_.present())
      if (auto s = resolve_contact(); !s.ok()) return s;
    return add_household();
  }

  Status resolve_account() {
    json fields = account_.fields;
    if (account_.existing) {
      if (account_rt_) fields["RecordTypeName"] = account_rt_->name;
      out_.account_id = account_.existing->id;
      enrich(ctx_, out_.account_id, fields);
      return ok_status();
    }
    if (allow_dedup_) {
      DedupMatch m = find_duplicates(ctx_, objects::kAccount, fields, false);
      if (m.ids.size() == 1) {
        out_.account_id = m.ids.front();
        out_.account_deduplicated = true;
        enrich(ctx_, out_.account_id, fields);
        return ok_status();
      }
      if (m.ids.size() > 1) out_.review_reasons.push_back(several_matches_reason("Account", m));
    }
    if (auto s = required(fields, "Name", account_.path + ".CrmFields", "an Account"); !s.ok())
      return s;
    create_account(std::move(fields), account_record_type(), false);
    return ok_status();
  }

  Status resolve_contact() {
    json fields = contact_.fields;
    if (!contact_.record_type.empty()) {
      if (contact_.existing) {
        std::string stored = contact_.existing->text("RecordTypeName");
        if (!stored.empty() && stored != contact_.record_type)
          return invalid(contact_.path + ".RecordTypeName",
                         contact_.path + ".RecordTypeName: Contact " + contact_.existing->id +
                             " is of record type " + stored + ", not " + contact_.record_type);
      }
      fields["RecordTypeName"] = contact_.record_type;
    }
    // An existing contact keeps the account it has; only an empty AccountId is filled.
    if (!out_.account_id.empty()) fields["AccountId"] = out_.account_id;
    std::string existing;
    if (contact_.existing) {
      existing = contact_.existing->id;
    } else if (allow_dedup_) {
      DedupMatch m = find_duplicates(ctx_, objects::kContact, fields, std::nullopt);
      if (m.ids.size() == 1) {
        existing = m.ids.front();
        out_.contact_deduplicated = true;
      } else if (m.ids.size() > 1) {
        out_.review_reasons.push_back(several_matches_reason("Contact", m));
      }
    }
    if (!existing.empty()) {
      out_.contact_id = existing;
      enrich(ctx_, existing, fields);
      if (!account_.present()) {
        RecordPtr c = ctx_.tx.get(existing);
        out_.account_id = c->text("AccountId");
        out_.person_account = is_person_record(*c);
      }
      return ok_status();
    }
    if (auto s = required(fields, "LastName", contact_.path + ".CrmFields", "a Contact"); !s.ok())
      return s;
    fields["Name"] = full_name(fields);
    fields["IsPersonAccount"] = false;
    // As the platform does: a new record without one gets its object's default.
    if (!fields.contains("RecordTypeName"))
      if (const RecordTypeDef* d = contact_def_->default_record_type())
        fields["RecordTypeName"] = d->name;
    out_.contact_id = create_record(ctx_, *contact_def_, std::move(fields));
    out_.contact_created = true;
    return ok_status();
  }

  // The nonprofit package's rule: a contact never stands without an account.
  // The same when the caller's record needs an account (a gift commitment's
  // donor): a household, of a business record type even where the default
  // is a person account's.
  Status add_household() {
    if (account_.present() || out_.contact_id.empty() || !out_.account_id.empty() ||
        (!households() && !ctx_.account_required))
      return ok_status();
    RecordPtr c = ctx_.tx.get(out_.contact_id);
    json fields = json::object();
    fields["Name"] = c->text("LastName") + " Household";
    const RecordTypeDef* rt = account_record_type();
    if (rt && rt->person_account) {
      rt = nullptr;
      for (const auto& t : account_def_->record_types)
        if (!t.person_account) {
          rt = &t;
          break;
        }
    }
    std::string account_id = create_account(std::move(fields), rt, false);
    Record edited = *c;
    edited.fields["AccountId"] = account_id;
    edited.modified = ctx_.now;
    ctx_.tx.put(std::move(edited));
    return ok_status();
  }

  PayerContext ctx_;
  std::string path_;
  const ObjectDef* contact_def_ = nullptr;
  const ObjectDef* account_def_ = nullptr;
  ApiErrors errors_;
  Block contact_, account_;
  const RecordTypeDef* account_rt_ = nullptr;  // as sent; null: the default applies
  bool allow_dedup_ = false;
  bool account_broken_ = false;  // its Id or record type failed: its fields cannot be read
  bool person_ = false;
  json person_fields_ = json::object();  // the person's Contact fields, Contact spelling
  PayerOutcome out_;
};

}  // namespace

Result<PayerOutcome> resolve_payer(const nlohmann::json& payer, PayerContext ctx,
                                   std::string_view path) {
  return Resolver(ctx, path).run(payer);
}

}  // namespace fake_org
