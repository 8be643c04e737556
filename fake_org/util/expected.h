#pragma once
// Errors as values: a T, or the error E that stood in its way. SOQL's result
// (the first problem of a query) is this shape; the payment API's Result and
// the data API's DataResult (every problem of a request) are ValueOrErrors.
#include <utility>
#include <variant>
#include <vector>

namespace fake_org::util {

template <typename T, typename E>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}  // NOLINT: a value converts
  Expected(E error) : v_(std::move(error)) {}  // NOLINT: so does an error
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<T>(v_); }
  const T& value() const { return std::get<T>(v_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const E& error() const { return std::get<E>(v_); }

 private:
  std::variant<T, E> v_;
};

// A T, or one or more errors E (a request's every problem, listed at once).
template <typename T, typename E>
class ValueOrErrors : public Expected<T, std::vector<E>> {
 public:
  using Expected<T, std::vector<E>>::Expected;
  ValueOrErrors(E error)
      : Expected<T, std::vector<E>>(std::vector<E>{std::move(error)}) {}  // NOLINT
  const std::vector<E>& errors() const { return this->error(); }
};

}  // namespace fake_org::util
