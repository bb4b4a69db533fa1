// schema.cpp — the non-template parts of schema.h: reading, checking and writing a value of each
// type, error messages in one wording, the schema document of a field, and the command line's
// flag ↔ key mapping.
#include "schema.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace lnx::schema {

const char* to_string(Type t) {
  switch (t) {
    case Type::Int:
      return "int";
    case Type::UInt:
      return "uint";
    case Type::Number:
      return "number";
    case Type::Choice:
    case Type::Enum:
      return "choice";
    case Type::IntList:
      return "int[]";
    case Type::UIntList:
      return "uint[]";
    case Type::NumberList:
      return "number[]";
    case Type::ChoiceList:
      return "choice[]";
    case Type::Object:
      return "object";
  }
  return "?";
}

bool is_list(Type t) {
  return t == Type::IntList || t == Type::UIntList || t == Type::NumberList || t == Type::ChoiceList;
}

namespace {

constexpr size_t kMaxObjectChars = 4096;  // an object field's text (a placement spec: a few hundred)

bool is_integer_type(Type t) { return t == Type::Int || t == Type::UInt || t == Type::IntList || t == Type::UIntList; }
bool is_choice_type(Type t) { return t == Type::Choice || t == Type::Enum || t == Type::ChoiceList; }

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string range_text(const Spec& s) {
  if (is_integer_type(s.type)) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "[%.0f, %.0f]", s.min, s.max);
    return buf;
  }
  return (s.min_exclusive ? "(" : "[") + format_number(s.min) + ", " + format_number(s.max) + "]";
}

void check_number(const Spec& s, const std::string& what, double v) {
  const bool lo_ok = s.min_exclusive ? v > s.min : v >= s.min;
  if (!std::isfinite(v) || !lo_ok || !(v <= s.max))
    throw ArgumentError(what + " = " + format_number(v) + " is out of range " + range_text(s));
}

void check_choice(const Spec& s, const std::string& what, const std::string& v,
                  const std::vector<std::string>& extra = {}) {
  std::vector<std::string> ok = s.allowed();
  ok.insert(ok.end(), extra.begin(), extra.end());
  for (const auto& x : ok)
    if (x == v) return;
  std::string list;
  for (size_t i = 0; i < ok.size(); ++i)
    list += (i == 0 ? "" : i + 1 == ok.size() ? " or " : ", ") + ("\"" + ok[i] + "\"");
  throw ArgumentError(what + " must be " + list);
}

void check_count(const Spec& s, size_t n) {
  if (n == 0) throw ArgumentError(s.name + " must not be empty");
  if (n > static_cast<size_t>(s.max_items))
    throw ArgumentError(s.name + " has " + std::to_string(n) + " entries; at most " + std::to_string(s.max_items) +
                        " allowed");
}

template <class T>
void check_unique(const Spec& s, const std::vector<T>& xs) {
  std::set<T> seen;
  for (const T& x : xs)
    if (!seen.insert(x).second) throw ArgumentError(s.name + " contains a duplicate entry");
}

double json_number(const json::Value& v, const std::string& what) {
  if (v.kind != json::Value::Kind::Number) throw ArgumentError(what + " must be a number");
  return v.num;
}
// An integer-valued number, range-checked before any cast (1e30 must not wrap).
double json_integer(const Spec& s, const json::Value& v, const std::string& what) {
  if (v.kind != json::Value::Kind::Number || std::floor(v.num) != v.num)
    throw ArgumentError(what + " must be an integer");
  check_number(s, what, v.num);
  return v.num;
}
const std::string& json_string(const json::Value& v, const std::string& what) {
  if (v.kind != json::Value::Kind::String) throw ArgumentError(what + " must be a string");
  return v.str;
}
const json::Value& json_list(const Spec& s, const json::Value& v) {
  if (v.kind != json::Value::Kind::Array) throw ArgumentError(s.name + " must be a list");
  check_count(s, v.arr.size());
  return v;
}

// An object field's text → its canonical text: the size, the JSON and the reader's checks, each
// message naming the key.
std::string object_text(const Spec& s, const std::string& text) {
  return s.read_object(json::parse_field(s.name, text, kMaxObjectChars));
}

template <class T, class F>
std::vector<T> list_of(const Spec& s, const json::Value& v, F entry) {
  std::vector<T> out;
  for (const json::Value& e : json_list(s, v).arr) out.push_back(entry(e));
  return out;
}

template <class T>
void check_number_list(const Spec& s, const std::vector<T>& xs) {
  check_count(s, xs.size());
  for (T x : xs) check_number(s, s.name + " entry", static_cast<double>(x));
  check_unique(s, xs);
}

template <class T>
void write_list(json::Writer& w, const std::vector<T>& xs) {
  w.begin_array();
  for (const T& x : xs) w.value(x);
  w.end_array();
}

Spec make(const char* name, Type t, const char* doc, double lo = 0, double hi = 0, bool excl = false,
          int max_items = 0) {
  Spec s;
  s.name = name, s.type = t, s.doc = doc, s.min = lo, s.max = hi, s.min_exclusive = excl;
  s.max_items = max_items;
  return s;
}

}  // namespace

Spec int_spec(const char* name, long lo, long hi, const char* doc) {
  return make(name, Type::Int, doc, double(lo), double(hi));
}
Spec uint_spec(const char* name, uint64_t hi, const char* doc) { return make(name, Type::UInt, doc, 0, double(hi)); }
Spec number_spec(const char* name, double lo, double hi, bool lo_exclusive, const char* doc) {
  return make(name, Type::Number, doc, lo, hi, lo_exclusive);
}
Spec choice_spec(const char* name, std::vector<std::string> (*choices)(), const char* doc) {
  Spec s = make(name, Type::Choice, doc);
  s.choices = choices;
  return s;
}
Spec enum_spec(const char* name, std::initializer_list<const char*> names, const char* doc) {
  Spec s = make(name, Type::Enum, doc);
  s.names.assign(names.begin(), names.end());
  return s;
}
Spec int_list_spec(const char* name, long lo, long hi, int max_items, const char* doc) {
  return make(name, Type::IntList, doc, double(lo), double(hi), false, max_items);
}
Spec uint_list_spec(const char* name, uint64_t hi, int max_items, const char* doc) {
  return make(name, Type::UIntList, doc, 0, double(hi), false, max_items);
}
Spec number_list_spec(const char* name, double lo, double hi, bool lo_exclusive, int max_items, const char* doc) {
  return make(name, Type::NumberList, doc, lo, hi, lo_exclusive, max_items);
}
Spec choice_list_spec(const char* name, std::vector<std::string> (*choices)(), int max_items, const char* doc) {
  Spec s = make(name, Type::ChoiceList, doc, 0, 0, false, max_items);
  s.choices = choices;
  return s;
}
Spec object_spec(const char* name, std::string (*read_object)(const json::Value&), const char* doc) {
  Spec s = make(name, Type::Object, doc);
  s.read_object = read_object;
  return s;
}
Spec only_when(Spec s, std::string key, std::vector<std::string> values) {
  s.only_when_key = std::move(key);
  s.only_when_values = std::move(values);
  return s;
}

void set_value(const Spec& s, void* p, const json::Value& v) {
  const std::string entry = s.name + " entry";
  switch (s.type) {
    case Type::Int:
      *static_cast<int*>(p) = static_cast<int>(json_integer(s, v, s.name));
      break;
    case Type::UInt:
      *static_cast<uint64_t*>(p) = static_cast<uint64_t>(json_integer(s, v, s.name));
      break;
    case Type::Number:
      *static_cast<double*>(p) = json_number(v, s.name);
      break;
    case Type::Choice:
      *static_cast<std::string*>(p) = json_string(v, s.name);
      break;
    case Type::Enum: {
      const std::string& x = json_string(v, s.name);
      for (size_t i = 0; i < s.names.size(); ++i)
        if (s.names[i] == x) {
          *static_cast<int*>(p) = static_cast<int>(i);
          return;
        }
      check_choice(s, s.name, x);  // throws, naming the choices
      break;
    }
    case Type::IntList:
      *static_cast<std::vector<int>*>(p) =
          list_of<int>(s, v, [&](const json::Value& e) { return static_cast<int>(json_integer(s, e, entry)); });
      break;
    case Type::UIntList:
      *static_cast<std::vector<uint64_t>*>(p) = list_of<uint64_t>(
          s, v, [&](const json::Value& e) { return static_cast<uint64_t>(json_integer(s, e, entry)); });
      break;
    case Type::NumberList:
      *static_cast<std::vector<double>*>(p) =
          list_of<double>(s, v, [&](const json::Value& e) { return json_number(e, entry); });
      break;
    case Type::ChoiceList:
      *static_cast<std::vector<std::string>*>(p) =
          list_of<std::string>(s, v, [&](const json::Value& e) { return json_string(e, s.name + " entries"); });
      break;
    case Type::Object: {
      if (v.kind == json::Value::Kind::String) {  // an object's JSON text (a form field, a file)
        *static_cast<std::string*>(p) = object_text(s, v.str);
        break;
      }
      if (v.kind != json::Value::Kind::Object)
        throw ArgumentError(s.name + " must be an object (or a string holding one)");
      *static_cast<std::string*>(p) = s.read_object(v);
      break;
    }
  }
}

void check_value(const Spec& s, const void* p, const std::vector<std::string>& extra) {
  switch (s.type) {
    case Type::Int:
      check_number(s, s.name, *static_cast<const int*>(p));
      break;
    case Type::UInt:
      check_number(s, s.name, static_cast<double>(*static_cast<const uint64_t*>(p)));
      break;
    case Type::Number:
      check_number(s, s.name, *static_cast<const double*>(p));
      break;
    case Type::Choice:
      check_choice(s, s.name, *static_cast<const std::string*>(p), extra);
      break;
    case Type::Enum:
      break;  // an enum member always holds one of its names
    case Type::IntList:
      check_number_list(s, *static_cast<const std::vector<int>*>(p));
      break;
    case Type::UIntList:
      check_number_list(s, *static_cast<const std::vector<uint64_t>*>(p));
      break;
    case Type::NumberList:
      check_number_list(s, *static_cast<const std::vector<double>*>(p));
      break;
    case Type::ChoiceList: {
      const auto& xs = *static_cast<const std::vector<std::string>*>(p);
      check_count(s, xs.size());
      for (const auto& x : xs) check_choice(s, s.name + " entry", x, extra);
      check_unique(s, xs);
      break;
    }
    case Type::Object: {
      // Canonical when set_value wrote it; a C++ caller's own text is read (and checked) again.
      const std::string& text = *static_cast<const std::string*>(p);
      if (!text.empty()) object_text(s, text);
      break;
    }
  }
}

void write_value(json::Writer& w, const Spec& s, const void* p) {
  switch (s.type) {
    case Type::Int:
      w.value(*static_cast<const int*>(p));
      break;
    case Type::UInt:
      w.value(*static_cast<const uint64_t*>(p));
      break;
    case Type::Number:
      w.value(*static_cast<const double*>(p));
      break;
    case Type::Choice:
      w.value(*static_cast<const std::string*>(p));
      break;
    case Type::Enum: {
      const int i = *static_cast<const int*>(p);
      if (i >= 0 && i < static_cast<int>(s.names.size())) w.value(s.names[i]);
      else w.null();
      break;
    }
    case Type::IntList:
      write_list(w, *static_cast<const std::vector<int>*>(p));
      break;
    case Type::UIntList:
      write_list(w, *static_cast<const std::vector<uint64_t>*>(p));
      break;
    case Type::NumberList:
      write_list(w, *static_cast<const std::vector<double>*>(p));
      break;
    case Type::ChoiceList:
      write_list(w, *static_cast<const std::vector<std::string>*>(p));
      break;
    case Type::Object: {
      const std::string& text = *static_cast<const std::string*>(p);
      if (text.empty()) w.null();
      else w.raw(text);
      break;
    }
  }
}

void describe_field(json::Writer& w, const Spec& p, const void* default_value) {
  w.begin_object().key("name").value(p.name).key("type").value(to_string(p.type));
  w.key("default");
  write_value(w, p, default_value);
  if (is_integer_type(p.type))  // integers exactly (seeds go up to 2^53; value(double) keeps 9 digits)
    w.key("min").value(static_cast<long long>(p.min)).key("max").value(static_cast<long long>(p.max));
  else if (!is_choice_type(p.type) && p.type != Type::Object) w.key("min").value(p.min).key("max").value(p.max);
  if (!is_choice_type(p.type) && p.type != Type::Object) w.key("min_exclusive").value(p.min_exclusive);
  if (is_list(p.type)) w.key("max_items").value(p.max_items);
  if (is_choice_type(p.type)) {
    w.key("choices").begin_array();
    for (const auto& x : p.allowed()) w.value(x);
    w.end_array();
  }
  if (!p.only_when_key.empty()) {
    w.key("only_when").begin_object().key(p.only_when_key).begin_array();
    for (const auto& v : p.only_when_values) w.value(v);
    w.end_array().end_object();
  }
  w.key("doc").value(p.doc).end_object();
}

bool means_default(const Spec& s, const json::Value& v) {
  if (v.kind == json::Value::Kind::Null) return true;
  return (s.type == Type::Choice || s.type == Type::Enum || s.type == Type::Object) &&
         v.kind == json::Value::Kind::String && v.str.empty();
}

void unknown_key(const std::string& key, const std::vector<std::string>& known) {
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  // The key is the caller's text: printable ASCII only, no markup, length-limited (docs/robustness.md).
  std::string safe;
  for (size_t i = 0; i < key.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    safe += (c >= 0x20 && c < 0x7f && c != '<' && c != '>' && c != '&' && c != '"') ? static_cast<char>(c) : '?';
  }
  if (key.size() > 40) safe += "...";
  throw ArgumentError("unknown config key \"" + safe + "\" (known keys: " + list + ")");
}

std::string flag_of(const std::string& key) {
  std::string f = "--" + key;
  for (char& c : f)
    if (c == '_') c = '-';
  return f;
}

std::string key_of_flag(const std::string& flag) {
  std::string k = flag.rfind("--", 0) == 0 ? flag.substr(2) : flag;
  for (char& c : k)
    if (c == '-') c = '_';
  return k;
}

namespace {

// A number as the CLI accepts it: what strtod reads, all of it, finite, not hexadecimal.
std::string scalar_json(const Spec& s, const std::string& t) {
  if (is_choice_type(s.type)) {
    json::Writer w;
    w.value(t);
    return w.str();
  }
  char* end = nullptr;
  const double x = std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(x) || t.find_first_of("xX") != std::string::npos)
    throw ArgumentError(flag_of(s.name) + " needs a number, got \"" + t.substr(0, 40) + "\"");
  return json::Writer().exact(x).str();
}

}  // namespace

std::string cli_value_json(const Spec& s, const std::string& text) {
  if (!is_list(s.type)) return scalar_json(s, text);
  std::string out = "[";
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    out += scalar_json(s, text.substr(start, comma - start));
    if (comma == std::string::npos) break;
    out += ",";
    start = comma + 1;
  }
  return out + "]";
}

std::string usage_item(const Spec& s, const void* default_value) {
  if (s.type == Type::Object) return "[" + flag_of(s.name) + " FILE]";
  if (is_choice_type(s.type) && s.type != Type::ChoiceList) {
    std::string alts;
    for (const auto& x : s.allowed()) alts += (alts.empty() ? "" : "|") + x;
    return "[" + flag_of(s.name) + " " + alts + "]";
  }
  json::Writer w;
  write_value(w, s, default_value);
  std::string d;
  for (char ch : w.str())
    if (ch != '"' && ch != '[' && ch != ']') d += ch;
  return "[" + flag_of(s.name) + " " + d + "]";
}

std::string wrap_items(const std::vector<std::string>& items, size_t indent, size_t width) {
  std::string out, line(indent, ' ');
  for (const auto& item : items) {
    if (line.size() + item.size() + 1 > width && line.size() > indent) {
      out += line + "\n";
      line = std::string(indent, ' ');
    }
    line += (line.size() > indent ? " " : "") + item;
  }
  return out + line;
}

}  // namespace lnx::schema
