// spec.cpp — reading, checking and writing a placement spec (spec.h). The formulas themselves are
// formulas.cpp's, shared with the registered placements.
#include "spec.h"

#include <cmath>
#include <cstdio>

#include "../config.h"

namespace lnx {
namespace {

const char* const kResidualNames[] = {"one", "admin", "deepnet", "completep"};
const char* const kInitNames[] = {"xavier", "deepnet", "tfixup", "zero"};
const char* const kNormNames[] = {"layernorm", "rmsnorm"};

constexpr double kMaxLBase = 4096, kMaxExponent = 4;

std::string key_path(const std::string& key) { return "placement_spec." + key; }

void known_keys(const json::Value& obj, const std::string& where, std::initializer_list<const char*> keys) {
  for (const auto& kv : obj.obj) {
    bool ok = false;
    for (const char* k : keys) ok |= kv.first == k;
    if (ok) continue;
    std::string list, safe;
    for (const char* k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
    for (size_t i = 0; i < kv.first.size() && i < 40; ++i) {
      const unsigned char c = static_cast<unsigned char>(kv.first[i]);
      safe += (c >= 0x20 && c < 0x7f && c != '<' && c != '>' && c != '&' && c != '"') ? static_cast<char>(c) : '?';
    }
    if (kv.first.size() > 40) safe += "...";
    throw ArgumentError("unknown key \"" + safe + "\" in " + where + " (known keys: " + list + ")");
  }
}

bool read_bool(const json::Value& obj, const char* key, const std::string& what, bool dflt) {
  const auto it = obj.obj.find(key);
  if (it == obj.obj.end() || it->second.kind == json::Value::Kind::Null) return dflt;
  if (it->second.kind != json::Value::Kind::Bool) throw ArgumentError(what + " must be true or false");
  return it->second.b;
}

const json::Value* find(const json::Value& obj, const char* key) {
  const auto it = obj.obj.find(key);
  return it == obj.obj.end() || it->second.kind == json::Value::Kind::Null ? nullptr : &it->second;
}

template <size_t N>
int read_name(const json::Value& v, const std::string& what, const char* const (&names)[N]) {
  std::string list;
  for (size_t i = 0; i < N; ++i) list += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + ("\"" + std::string(names[i]) + "\"");
  if (v.kind != json::Value::Kind::String) throw ArgumentError(what + " must be " + list);
  for (size_t i = 0; i < N; ++i)
    if (v.str == names[i]) return static_cast<int>(i);
  throw ArgumentError(what + " must be " + list);
}

// A short text a spec gives: an identifier (name: a-z, 0-9, '-', '_'), a label (printable ASCII
// without markup) or a doc (printable ASCII: "x <- LN(x + F(x))"), at most `max` characters.
enum class Text { Identifier, Label, Doc };
std::string read_text(const json::Value& v, const std::string& what, size_t max, Text kind) {
  const bool identifier = kind == Text::Identifier;
  if (v.kind != json::Value::Kind::String) throw ArgumentError(what + " must be a string");
  if (v.str.empty() || v.str.size() > max)
    throw ArgumentError(what + " must have 1 to " + std::to_string(max) + " characters");
  for (char ch : v.str) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const bool ok = identifier ? (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                               : c >= 0x20 && c < 0x7f && (kind == Text::Doc || (c != '<' && c != '>' && c != '&' && c != '"'));
    if (!ok)
      throw ArgumentError(what + (identifier             ? " may hold only a-z, 0-9, '-' and '_'"
                                  : kind == Text::Label ? " may hold only printable ASCII and no markup characters"
                                                        : " may hold only printable ASCII"));
  }
  return v.str;
}

double read_number(const json::Value& obj, const char* key, const std::string& what, double dflt, double hi) {
  const json::Value* v = find(obj, key);
  if (!v) return dflt;
  if (v->kind != json::Value::Kind::Number) throw ArgumentError(what + " must be a number");
  if (!(v->num > 0) || !(v->num <= hi)) {
    char buf[120];
    std::snprintf(buf, sizeof buf, " = %.9g is out of range (0, %.9g]", v->num, hi);
    throw ArgumentError(what + buf);
  }
  return v->num;
}

Sublayer read_sublayer(const json::Value& v, const std::string& key) {
  const std::string what = key_path(key);
  if (v.kind != json::Value::Kind::Object) throw ArgumentError(what + " must be an object");
  known_keys(v, what, {"norm_input", "norm_branch", "norm_after"});
  Sublayer s;
  s.norm_input = read_bool(v, "norm_input", what + ".norm_input", false);
  s.norm_branch = read_bool(v, "norm_branch", what + ".norm_branch", false);
  s.norm_after = read_bool(v, "norm_after", what + ".norm_after", false);
  return s;
}

ResidualScale read_residual(const json::Value& v) {
  const std::string what = key_path("residual_scale");
  ResidualScale r;
  if (v.kind == json::Value::Kind::String) {
    r.kind = static_cast<ResidualScale::Kind>(read_name(v, what, kResidualNames));
    return r;
  }
  if (v.kind != json::Value::Kind::Object)
    throw ArgumentError(what + " must be \"one\", \"admin\", \"deepnet\", \"completep\" or an object {\"kind\": …}");
  known_keys(v, what, {"kind", "L_base", "a"});
  const json::Value* kind = find(v, "kind");
  if (!kind) throw ArgumentError(what + ".kind is missing");
  r.kind = static_cast<ResidualScale::Kind>(read_name(*kind, what + ".kind", kResidualNames));
  if (r.kind != ResidualScale::Kind::CompleteP && (find(v, "L_base") || find(v, "a")))
    throw ArgumentError(what + ": L_base and a belong to \"completep\"");
  r.l_base = read_number(v, "L_base", what + ".L_base", 1, kMaxLBase);
  r.a = read_number(v, "a", what + ".a", 1, kMaxExponent);
  return r;
}

std::string describe(const SpecPlacement& s) {
  auto sub = [](const Sublayer& x) {
    std::string out;
    if (x.norm_input) out += "input ";
    if (x.norm_branch) out += "branch ";
    if (x.norm_after) out += "after ";
    return out.empty() ? std::string("none") : out.substr(0, out.size() - 1);
  };
  return "a spec: norms on attention (" + sub(s.p.attention) + "), FFN (" + sub(s.p.ffn) + ")" +
         (s.p.final_norm ? ", a final norm" : "") + "; residual " +
         kResidualNames[static_cast<int>(s.p.residual_scale.kind)] + ", init " +
         kInitNames[static_cast<int>(s.p.init_scale.kind)];
}

}  // namespace

std::shared_ptr<const SpecPlacement> read_placement_spec(const json::Value& v) {
  if (v.kind != json::Value::Kind::Object) throw ArgumentError("placement_spec must be an object");
  known_keys(v, "placement_spec",
             {"name", "label", "doc", "attention", "ffn", "final_norm", "residual_scale", "init_scale", "norm"});
  auto s = std::make_shared<SpecPlacement>();
  s->name = "custom";
  if (const json::Value* n = find(v, "name")) s->name = read_text(*n, key_path("name"), 32, Text::Identifier);
  for (const std::string& known : placement_names())
    if (known == s->name)
      throw ArgumentError(key_path("name") + " = \"" + s->name + "\" is a registered placement; give the spec a name of its own");
  s->label = s->name;
  if (const json::Value* l = find(v, "label")) s->label = read_text(*l, key_path("label"), 40, Text::Label);
  if (const json::Value* a = find(v, "attention")) s->p.attention = read_sublayer(*a, "attention");
  if (const json::Value* f = find(v, "ffn")) s->p.ffn = read_sublayer(*f, "ffn");
  s->p.final_norm = read_bool(v, "final_norm", key_path("final_norm"), false);
  if (const json::Value* r = find(v, "residual_scale")) s->p.residual_scale = read_residual(*r);
  if (const json::Value* i = find(v, "init_scale"))
    s->p.init_scale.kind = static_cast<InitScale::Kind>(read_name(*i, key_path("init_scale"), kInitNames));
  if (const json::Value* n = find(v, "norm")) s->p.norm = read_name(*n, key_path("norm"), kNormNames);
  s->doc = describe(*s);
  if (const json::Value* d = find(v, "doc")) s->doc = read_text(*d, key_path("doc"), 200, Text::Doc);
  s->p.name = s->name.c_str();
  s->p.label = s->label.c_str();
  s->p.doc = s->doc.c_str();
  return s;
}

std::shared_ptr<const SpecPlacement> read_placement_spec(const std::string& text) {
  return read_placement_spec(json::parse_field("placement_spec", text, kMaxPlacementSpecChars));
}

std::string placement_spec_json(const Placement& p, const char* name) {
  json::Writer w;
  auto sub = [&](const char* key, const Sublayer& s) {
    w.key(key).begin_object().key("norm_input").value(s.norm_input).key("norm_branch").value(s.norm_branch);
    w.key("norm_after").value(s.norm_after).end_object();
  };
  w.begin_object().key("name").value(name ? name : p.name).key("label").value(p.label).key("doc").value(p.doc);
  sub("attention", p.attention);
  sub("ffn", p.ffn);
  w.key("final_norm").value(p.final_norm);
  const ResidualScale& r = p.residual_scale;
  if (r.kind == ResidualScale::Kind::CompleteP)
    w.key("residual_scale").begin_object().key("kind").value("completep").key("L_base").exact(r.l_base).key("a").exact(r.a).end_object();
  else
    w.key("residual_scale").value(kResidualNames[static_cast<int>(r.kind)]);
  w.key("init_scale").value(kInitNames[static_cast<int>(p.init_scale.kind)]);
  if (p.norm >= 0) w.key("norm").value(kNormNames[p.norm]);
  return w.end_object().str();
}

std::string placement_spec_name(const std::string& canonical) {
  if (canonical.empty()) return "";
  return read_placement_spec(canonical)->name;
}

std::shared_ptr<const Placement> resolve_placement(const std::string& name, const std::string& spec) {
  if (!spec.empty()) {
    std::shared_ptr<const SpecPlacement> s = read_placement_spec(spec);
    if (s->name == name) return std::shared_ptr<const Placement>(s, &s->p);
  }
  return std::shared_ptr<const Placement>(std::shared_ptr<const Placement>(), &placement(name));
}

}  // namespace lnx
