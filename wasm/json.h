// json.h — the small JSON reader and writer the engine needs for configs and results.
//
// The reader parses one document into a tree (objects, arrays, numbers, strings, booleans, null)
// and rejects trailing garbage, deep nesting and huge inputs with lnx::ArgumentError; typed getters
// check the kind and the range of each config value. The writer prints numbers with 9 significant
// digits (enough to round-trip a float) and refuses non-finite numbers (the caller writes null or a
// status instead). Leaves out: unicode escapes beyond \uXXXX in the BMP, streaming.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lnx::json {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Value> arr;
  std::map<std::string, Value> obj;
};

Value parse(const std::string& text);  // throws ArgumentError with the position on malformed input
// A field's JSON text (a config's object field, a placement spec): refused when longer than
// max_chars, and a parse error reworded to name the field ("NAME is not a JSON object (…)").
Value parse_field(const std::string& name, const std::string& text, size_t max_chars);

// Typed access to an optional key of an object; `what` names the key in error messages.
// Each throws ArgumentError when the key is present with the wrong type or out of [lo, hi].
void read_int(const Value& obj, const char* key, int& out, long lo, long hi);
void read_u64(const Value& obj, const char* key, uint64_t& out, uint64_t hi);
void read_double(const Value& obj, const char* key, double& out, double lo, double hi, bool lo_open);
void read_string(const Value& obj, const char* key, std::string& out);
void read_int_list(const Value& obj, const char* key, std::vector<int>& out, long lo, long hi, size_t max_len);
void read_u64_list(const Value& obj, const char* key, std::vector<uint64_t>& out, uint64_t hi, size_t max_len);
void read_double_list(const Value& obj, const char* key, std::vector<double>& out, double lo, double hi,
                      size_t max_len);
void read_string_list(const Value& obj, const char* key, std::vector<std::string>& out, size_t max_len);
// Throws if the object has a key not in `allowed` (catches typos such as "layer" for "layers").
void reject_unknown_keys(const Value& obj, const std::vector<std::string>& allowed);

// Minimal writer: builds a document into a string.
class Writer {
 public:
  Writer& begin_object();
  Writer& end_object();
  Writer& begin_array();
  Writer& end_array();
  Writer& key(const std::string& k);
  Writer& value(double v);  // non-finite → null; 9 significant digits (a float to the last bit)
  Writer& exact(double v);  // non-finite → null; 17 significant digits (a double to the last bit)
  Writer& value(long long v);
  Writer& value(int v) { return value(static_cast<long long>(v)); }
  Writer& value(uint64_t v) { return value(static_cast<long long>(v)); }
  Writer& value(const std::string& s);
  Writer& value(const char* s) { return value(std::string(s)); }
  Writer& value(bool v);
  Writer& null();
  template <class It>
  Writer& array(It begin, It end) {
    begin_array();
    for (; begin != end; ++begin) value(static_cast<double>(*begin));
    return end_array();
  }
  // An array of rows, each an array of numbers as `array` writes it (a matrix, row-major).
  template <class Rows>
  Writer& rows(const Rows& rs) {
    begin_array();
    for (const auto& r : rs) array(r.begin(), r.end());
    return end_array();
  }
  Writer& raw(const std::string& json);  // an already serialised value
  const std::string& str() const { return out_; }

 private:
  void separator();
  Writer& open(char bracket);   // an object or array: its bracket, and no element written yet
  Writer& close(char bracket);  // the container opened last: its bracket
  void write_string(const std::string& s);
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace lnx::json
