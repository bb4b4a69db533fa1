// json.cpp — see json.h.
#include "json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "config.h"

namespace lnx::json {
namespace {

constexpr size_t kMaxInput = 1 << 20;  // configs are tiny; refuse megabytes of input
constexpr int kMaxDepth = 16;

struct Parser {
  const std::string& s;
  size_t i = 0;
  std::string key_;  // the key whose value is being parsed (for error messages)

  [[noreturn]] void fail(const std::string& what) const {
    throw ArgumentError("config JSON: " + what + " at offset " + std::to_string(i));
  }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  }
  bool lit(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s.compare(i, n, w) == 0) {
      i += n;
      return true;
    }
    return false;
  }
  // The items of an object or array up to `close` (its opening bracket read), separated by commas:
  // item() reads one.
  template <class Item>
  void parse_items(const char* close, Item item) {
    ws();
    if (lit(close)) return;
    for (;;) {
      item();
      ws();
      if (lit(",")) continue;
      if (lit(close)) return;
      fail(std::string("expected ',' or '") + close + "'");
    }
  }
  Value parse_value(int depth) {
    if (depth > kMaxDepth) fail("nesting too deep");
    ws();
    if (i >= s.size()) fail("unexpected end");
    Value v;
    char c = s[i];
    if (c == '{') {
      v.kind = Value::Kind::Object;
      ++i;
      parse_items("}", [&] {
        ws();
        if (i >= s.size() || s[i] != '"') fail("expected a string key");
        std::string k = parse_string();
        ws();
        if (!lit(":")) fail("expected ':'");
        if (v.obj.count(k)) fail("duplicate key \"" + k + "\"");
        const std::string outer = key_;
        key_ = k;  // so that an error inside the value names its key
        v.obj[k] = parse_value(depth + 1);
        key_ = outer;
      });
      return v;
    }
    if (c == '[') {
      v.kind = Value::Kind::Array;
      ++i;
      parse_items("]", [&] { v.arr.push_back(parse_value(depth + 1)); });
      return v;
    }
    if (c == '"') {
      v.kind = Value::Kind::String;
      v.str = parse_string();
      return v;
    }
    if (lit("true")) {
      v.kind = Value::Kind::Bool;
      v.b = true;
      return v;
    }
    if (lit("false")) {
      v.kind = Value::Kind::Bool;
      return v;
    }
    if (lit("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      size_t start = i;
      if (s[i] == '-') ++i;
      while (i < s.size() &&
             ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == '+' || s[i] == '-'))
        ++i;
      std::string tok = s.substr(start, i - start);
      char* end = nullptr;
      double d = std::strtod(tok.c_str(), &end);
      if (end != tok.c_str() + tok.size()) fail("malformed number '" + tok + "'");
      if (!std::isfinite(d))
        fail("number out of range '" + tok + "'" + (key_.empty() ? std::string() : " (the value of \"" + key_ + "\")"));
      v.kind = Value::Kind::Number;
      v.num = d;
      return v;
    }
    fail(std::string("unexpected character '") + c + "'");
  }
  std::string parse_string() {
    ++i;  // opening quote
    std::string out;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c == '\\') {
        if (i >= s.size()) fail("unterminated escape");
        char e = s[i++];
        switch (e) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'r':
            out += '\r';
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'u': {
            if (i + 4 > s.size()) fail("short \\u escape");
            unsigned cp = static_cast<unsigned>(std::strtoul(s.substr(i, 4).c_str(), nullptr, 16));
            i += 4;
            if (cp < 0x80) {
              out += static_cast<char>(cp);
            } else if (cp < 0x800) {
              out += static_cast<char>(0xC0 | (cp >> 6));
              out += static_cast<char>(0x80 | (cp & 0x3F));
            } else {
              out += static_cast<char>(0xE0 | (cp >> 12));
              out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
              out += static_cast<char>(0x80 | (cp & 0x3F));
            }
            break;
          }
          default:
            out += e;
        }
      } else {
        out += c;
      }
    }
    if (i >= s.size()) fail("unterminated string");
    ++i;
    return out;
  }
};

const Value* find(const Value& obj, const char* key) {
  if (obj.kind != Value::Kind::Object) return nullptr;
  auto it = obj.obj.find(key);
  return it == obj.obj.end() || it->second.kind == Value::Kind::Null ? nullptr : &it->second;
}

// Quote a user-supplied string for an error message: printable ASCII only, length-limited, so a
// message never carries markup or control characters back to a page.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (size_t k = 0; k < s.size() && k < 40; ++k) {
    unsigned char c = static_cast<unsigned char>(s[k]);
    out += (c >= 0x20 && c < 0x7f && c != '<' && c != '>' && c != '&' && c != '"') ? static_cast<char>(c) : '?';
  }
  if (s.size() > 40) out += "...";
  return out + "\"";
}

std::string fmt_num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

double number_in(const Value& v, const std::string& what, double lo, double hi, bool lo_open) {
  if (v.kind != Value::Kind::Number) throw ArgumentError(what + " must be a number");
  if (!(lo_open ? v.num > lo : v.num >= lo) || !(v.num <= hi))
    throw ArgumentError(what + " = " + fmt_num(v.num) + " is out of range " + (lo_open ? "(" : "[") + fmt_num(lo) +
                        ", " + fmt_num(hi) + "]");
  return v.num;
}

// 64-bit on purpose: `long` is 32 bits in wasm32, and seeds go up to 2^53.
int64_t integer_in(const Value& v, const std::string& what, int64_t lo, int64_t hi) {
  if (v.kind != Value::Kind::Number || std::floor(v.num) != v.num) throw ArgumentError(what + " must be an integer");
  if (v.num < static_cast<double>(lo) || v.num > static_cast<double>(hi))
    throw ArgumentError(what + " = " + fmt_num(v.num) + " is out of range [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "]");
  return static_cast<int64_t>(v.num);
}

const Value& list_of(const Value& obj, const char* key, size_t max_len) {
  const Value* v = find(obj, key);
  if (v->kind != Value::Kind::Array) throw ArgumentError(std::string(key) + " must be a list");
  if (v->arr.empty()) throw ArgumentError(std::string(key) + " must not be empty");
  if (v->arr.size() > max_len)
    throw ArgumentError(std::string(key) + " has " + std::to_string(v->arr.size()) + " entries; at most " +
                        std::to_string(max_len) + " allowed");
  return *v;
}

}  // namespace

Value parse(const std::string& text) {
  if (text.size() > kMaxInput) throw ArgumentError("config JSON is larger than 1 MiB");
  Parser p{text};
  Value v = p.parse_value(0);
  p.ws();
  if (p.i != text.size()) p.fail("trailing characters");
  if (v.kind != Value::Kind::Object) throw ArgumentError("config JSON must be an object");
  return v;
}

Value parse_field(const std::string& name, const std::string& text, size_t max_chars) {
  if (text.size() > max_chars)
    throw ArgumentError(name + " has " + std::to_string(text.size()) + " characters; at most " +
                        std::to_string(max_chars) + " allowed");
  try {
    return parse(text);
  } catch (const ArgumentError& e) {
    const std::string m = e.what();
    throw ArgumentError(name + " is not a JSON object (" + (m.rfind("config JSON: ", 0) == 0 ? m.substr(13) : m) + ")");
  }
}

void read_int(const Value& obj, const char* key, int& out, long lo, long hi) {
  if (const Value* v = find(obj, key)) out = static_cast<int>(integer_in(*v, key, lo, hi));
}
void read_u64(const Value& obj, const char* key, uint64_t& out, uint64_t hi) {
  if (const Value* v = find(obj, key)) out = static_cast<uint64_t>(integer_in(*v, key, 0, static_cast<int64_t>(hi)));
}
void read_double(const Value& obj, const char* key, double& out, double lo, double hi, bool lo_open) {
  if (const Value* v = find(obj, key)) out = number_in(*v, key, lo, hi, lo_open);
}
void read_string(const Value& obj, const char* key, std::string& out) {
  if (const Value* v = find(obj, key)) {
    if (v->kind != Value::Kind::String) throw ArgumentError(std::string(key) + " must be a string");
    out = v->str;
  }
}
void read_int_list(const Value& obj, const char* key, std::vector<int>& out, long lo, long hi, size_t max_len) {
  if (!find(obj, key)) return;
  const Value& l = list_of(obj, key, max_len);
  out.clear();
  for (const Value& e : l.arr) out.push_back(static_cast<int>(integer_in(e, std::string(key) + " entry", lo, hi)));
}
void read_u64_list(const Value& obj, const char* key, std::vector<uint64_t>& out, uint64_t hi, size_t max_len) {
  if (!find(obj, key)) return;
  const Value& l = list_of(obj, key, max_len);
  out.clear();
  for (const Value& e : l.arr)
    out.push_back(static_cast<uint64_t>(integer_in(e, std::string(key) + " entry", 0, static_cast<int64_t>(hi))));
}
void read_double_list(const Value& obj, const char* key, std::vector<double>& out, double lo, double hi,
                      size_t max_len) {
  if (!find(obj, key)) return;
  const Value& l = list_of(obj, key, max_len);
  out.clear();
  for (const Value& e : l.arr) out.push_back(number_in(e, std::string(key) + " entry", lo, hi, true));
}
void read_string_list(const Value& obj, const char* key, std::vector<std::string>& out, size_t max_len) {
  if (!find(obj, key)) return;
  const Value& l = list_of(obj, key, max_len);
  out.clear();
  for (const Value& e : l.arr) {
    if (e.kind != Value::Kind::String) throw ArgumentError(std::string(key) + " entries must be strings");
    out.push_back(e.str);
  }
}
void reject_unknown_keys(const Value& obj, const std::vector<std::string>& allowed) {
  std::set<std::string> ok(allowed.begin(), allowed.end());
  for (const auto& kv : obj.obj)
    if (!ok.count(kv.first)) throw ArgumentError("unknown config key " + quoted(kv.first));
}

// ---- Writer ----
void Writer::separator() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}
Writer& Writer::open(char bracket) {
  separator();
  out_ += bracket;
  first_.push_back(true);
  return *this;
}
Writer& Writer::close(char bracket) {
  out_ += bracket;
  first_.pop_back();
  return *this;
}
Writer& Writer::begin_object() { return open('{'); }
Writer& Writer::end_object() { return close('}'); }
Writer& Writer::begin_array() { return open('['); }
Writer& Writer::end_array() { return close(']'); }
Writer& Writer::key(const std::string& k) {
  separator();
  write_string(k);
  out_ += ':';
  after_key_ = true;
  return *this;
}
Writer& Writer::value(double v) {
  separator();
  out_ += std::isfinite(v) ? fmt_num(v) : "null";
  return *this;
}
Writer& Writer::exact(double v) {
  separator();
  if (!std::isfinite(v)) {
    out_ += "null";
    return *this;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out_ += buf;
  return *this;
}
Writer& Writer::value(long long v) {
  separator();
  out_ += std::to_string(v);
  return *this;
}
Writer& Writer::value(bool v) {
  separator();
  out_ += v ? "true" : "false";
  return *this;
}
Writer& Writer::null() {
  separator();
  out_ += "null";
  return *this;
}
Writer& Writer::raw(const std::string& json) {
  separator();
  out_ += json;
  return *this;
}
Writer& Writer::value(const std::string& s) {
  separator();
  write_string(s);
  return *this;
}
void Writer::write_string(const std::string& s) {
  out_ += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\t':
        out_ += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out_ += buf;
        } else {
          out_ += c;
        }
    }
  }
  out_ += '"';
}

}  // namespace lnx::json
