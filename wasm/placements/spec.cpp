// spec.cpp — reading, checking and writing a placement spec (spec.h). The formulas themselves are
// formulas.cpp's, shared with the registered placements.
#include "spec.h"

#include <cmath>
#include <cstdio>

#include "../config.h"

namespace lnx {
namespace {

const char* const kResidualNames[] = {"one", "admin", "deepnet", "completep", "rezero"};
const char* const kInitNames[] = {"xavier", "deepnet", "tfixup", "zero"};
const char* const kNormNames[] = {"layernorm", "rmsnorm", "dyt", "none"};  // NormKind's order
const char* const kQkNormNames[] = {"none", "layernorm", "rmsnorm"};
const NormKind kQkNorms[] = {NormKind::None, NormKind::LayerNorm, NormKind::RmsNorm};
const char* const kGatePer[] = {"sublayer", "layer"};

constexpr double kMaxLBase = 4096, kMaxExponent = 4;
constexpr double kMaxAlpha0 = 10;  // DyT's α₀: the paper uses 0.2 … 1.5; beyond 10 tanh is a sign function
constexpr double kMaxG0 = 4;       // ReZero's g0: 0 is ReZero, 1 a plain residual

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
  for (size_t i = 0; i < N; ++i)
    list += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + ("\"" + std::string(names[i]) + "\"");
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
    const bool ok =
        identifier ? (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                   : c >= 0x20 && c < 0x7f && (kind == Text::Doc || (c != '<' && c != '>' && c != '&' && c != '"'));
    if (!ok)
      throw ArgumentError(what + (identifier            ? " may hold only a-z, 0-9, '-' and '_'"
                                  : kind == Text::Label ? " may hold only printable ASCII and no markup characters"
                                                        : " may hold only printable ASCII"));
  }
  return v.str;
}

// A number in (0, hi], or in [0, hi] when `zero_ok`.
double read_number(const json::Value& obj, const char* key, const std::string& what, double dflt, double hi,
                   bool zero_ok = false) {
  const json::Value* v = find(obj, key);
  if (!v) return dflt;
  if (v->kind != json::Value::Kind::Number) throw ArgumentError(what + " must be a number");
  if (!(zero_ok ? v->num >= 0 : v->num > 0) || !(v->num <= hi)) {
    char buf[120];
    std::snprintf(buf, sizeof buf, " = %.9g is out of range %c0, %.9g]", v->num, zero_ok ? '[' : '(', hi);
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
    throw ArgumentError(
        what + " must be \"one\", \"admin\", \"deepnet\", \"completep\", \"rezero\" or an object {\"kind\": …}");
  known_keys(v, what, {"kind", "L_base", "a", "g0", "per"});
  const json::Value* kind = find(v, "kind");
  if (!kind) throw ArgumentError(what + ".kind is missing");
  r.kind = static_cast<ResidualScale::Kind>(read_name(*kind, what + ".kind", kResidualNames));
  if (r.kind != ResidualScale::Kind::CompleteP && (find(v, "L_base") || find(v, "a")))
    throw ArgumentError(what + ": L_base and a belong to \"completep\"");
  if (r.kind != ResidualScale::Kind::ReZero && (find(v, "g0") || find(v, "per")))
    throw ArgumentError(what + ": g0 and per belong to \"rezero\"");
  r.l_base = read_number(v, "L_base", what + ".L_base", 1, kMaxLBase);
  r.a = read_number(v, "a", what + ".a", 1, kMaxExponent);
  r.g0 = read_number(v, "g0", what + ".g0", 0, kMaxG0, true);
  if (const json::Value* per = find(v, "per")) r.per_layer = read_name(*per, what + ".per", kGatePer) == 1;
  return r;
}

// norm: a name, or {"kind": "dyt", "alpha0": α₀} (alpha0 only for DyT).
void read_norm(const json::Value& v, Placement& p) {
  const std::string what = key_path("norm");
  if (v.kind == json::Value::Kind::String) {
    p.norm = static_cast<NormKind>(read_name(v, what, kNormNames));
    return;
  }
  if (v.kind != json::Value::Kind::Object)
    throw ArgumentError(
        what +
        " must be \"layernorm\", \"rmsnorm\", \"dyt\", \"none\" or an object {\"kind\": \"dyt\", \"alpha0\": …}");
  known_keys(v, what, {"kind", "alpha0"});
  const json::Value* kind = find(v, "kind");
  if (!kind) throw ArgumentError(what + ".kind is missing");
  p.norm = static_cast<NormKind>(read_name(*kind, what + ".kind", kNormNames));
  if (p.norm != NormKind::DyT && find(v, "alpha0")) throw ArgumentError(what + ": alpha0 belongs to \"dyt\"");
  p.alpha0 = read_number(v, "alpha0", what + ".alpha0", p.alpha0, kMaxAlpha0);
}

// The spec's rules across its keys. A spec that breaks one is refused with a RuleError of its name,
// which the page answers in its own words (lib/composer.ts); the schema lists them
// (describe_placement_spec_rules).
struct SpecRule {
  const char* name;
  const char* doc;
};
constexpr SpecRule kB2tNeedsNormAfter = {"b2t_needs_norm_after",
                                         "b2t needs a norm after the FFN's residual add (ffn.norm_after)"};
constexpr SpecRule kB2tNeedsNorms = {"b2t_needs_norms", "b2t needs norms to skip: norm is not \"none\""};
constexpr SpecRule kGateOverZeroBranches = {
    "gate_over_zero_branches",
    "a ReZero gate at 0 (g0 = 0) and init_scale \"zero\" do not go together: no gradient would ever reach a "
    "gate or a branch weight"};
constexpr const SpecRule* kSpecRules[] = {&kB2tNeedsNormAfter, &kB2tNeedsNorms, &kGateOverZeroBranches};

std::string describe(const SpecPlacement& s) {
  auto sub = [](const Sublayer& x) {
    std::string out;
    if (x.norm_input) out += "input ";
    if (x.norm_branch) out += "branch ";
    if (x.norm_after) out += "after ";
    return out.empty() ? std::string("none") : out.substr(0, out.size() - 1);
  };
  const Placement& p = s.p;
  std::string out = "a spec: norms on attention (" + sub(p.attention) + "), FFN (" + sub(p.ffn) + ")" +
                    (p.final_norm ? ", a final norm" : "");
  if (p.norm != NormKind::FromConfig) out += std::string(", norm ") + kNormNames[static_cast<int>(p.norm)];
  if (p.qk_norm != NormKind::None) out += std::string(", QK-norm ") + kNormNames[static_cast<int>(p.qk_norm)];
  if (p.b2t) out += ", a B2T skip";
  return out + "; residual " + kResidualNames[static_cast<int>(p.residual_scale.kind)] + ", init " +
         kInitNames[static_cast<int>(p.init_scale.kind)];
}

}  // namespace

std::shared_ptr<const SpecPlacement> read_placement_spec(const json::Value& v) {
  if (v.kind != json::Value::Kind::Object) throw ArgumentError("placement_spec must be an object");
  known_keys(v, "placement_spec",
             {"name", "label", "doc", "attention", "ffn", "final_norm", "residual_scale", "init_scale", "norm",
              "qk_norm", "b2t"});
  auto s = std::make_shared<SpecPlacement>();
  s->name = "custom";
  if (const json::Value* n = find(v, "name")) s->name = read_text(*n, key_path("name"), 32, Text::Identifier);
  for (const std::string& known : placement_names())
    if (known == s->name)
      throw ArgumentError(key_path("name") + " = \"" + s->name +
                          "\" is a registered placement; give the spec a name of its own");
  s->label = s->name;
  if (const json::Value* l = find(v, "label")) s->label = read_text(*l, key_path("label"), 40, Text::Label);
  if (const json::Value* a = find(v, "attention")) s->p.attention = read_sublayer(*a, "attention");
  if (const json::Value* f = find(v, "ffn")) s->p.ffn = read_sublayer(*f, "ffn");
  s->p.final_norm = read_bool(v, "final_norm", key_path("final_norm"), false);
  if (const json::Value* r = find(v, "residual_scale")) s->p.residual_scale = read_residual(*r);
  if (const json::Value* i = find(v, "init_scale"))
    s->p.init_scale.kind = static_cast<InitScale::Kind>(read_name(*i, key_path("init_scale"), kInitNames));
  if (const json::Value* n = find(v, "norm")) read_norm(*n, s->p);
  if (const json::Value* q = find(v, "qk_norm"))
    s->p.qk_norm = kQkNorms[read_name(*q, key_path("qk_norm"), kQkNormNames)];
  s->p.b2t = read_bool(v, "b2t", key_path("b2t"), false);
  // B2T adds the layer's input before the layer's last norm, the one after the FFN's residual add.
  if (s->p.b2t && !s->p.ffn.norm_after)
    throw RuleError(kB2tNeedsNormAfter.name,
                    key_path("b2t") +
                        " needs a norm after the FFN's residual add (ffn.norm_after: true): "
                        "the B2T skip carries the layer's input past every norm but that last one");
  if (s->p.b2t && s->p.norm == NormKind::None)
    throw RuleError(kB2tNeedsNorms.name,
                    key_path("b2t") + " skips the layer's norms but norm is \"none\": there are none to skip");
  // A gate at 0 in front of branches that start as the zero function: ∂ℒ/∂g = ⟨∂ℒ/∂s, f⟩ = 0, and
  // every branch weight's gradient carries the factor g = 0, so no gate and no branch weight ever
  // moves, whatever the optimizer: the layers stay the identity and only the embeddings train.
  if (s->p.residual_scale.kind == ResidualScale::Kind::ReZero && s->p.residual_scale.g0 == 0 &&
      s->p.init_scale.kind == InitScale::Kind::Zero)
    throw RuleError(kGateOverZeroBranches.name,
                    key_path("residual_scale") +
                        ".g0 = 0 with init_scale \"zero\": each branch starts as the zero function behind a "
                        "gate at 0, so no gradient ever reaches a gate or a branch weight and the layers never "
                        "train, whatever the optimizer; start the gate above 0 (g0) or choose another init_scale");
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
    w.key("residual_scale")
        .begin_object()
        .key("kind")
        .value("completep")
        .key("L_base")
        .exact(r.l_base)
        .key("a")
        .exact(r.a)
        .end_object();
  else if (r.kind == ResidualScale::Kind::ReZero)
    w.key("residual_scale")
        .begin_object()
        .key("kind")
        .value("rezero")
        .key("g0")
        .exact(r.g0)
        .key("per")
        .value(kGatePer[r.per_layer])
        .end_object();
  else w.key("residual_scale").value(kResidualNames[static_cast<int>(r.kind)]);
  w.key("init_scale").value(kInitNames[static_cast<int>(p.init_scale.kind)]);
  if (p.norm == NormKind::DyT)
    w.key("norm").begin_object().key("kind").value("dyt").key("alpha0").exact(p.alpha0).end_object();
  else if (p.norm != NormKind::FromConfig) w.key("norm").value(kNormNames[static_cast<int>(p.norm)]);
  // Keys added after the first documents: written only away from their defaults, so the canonical
  // form of every spec that does not use them is what it was.
  if (p.qk_norm != NormKind::None) w.key("qk_norm").value(kNormNames[static_cast<int>(p.qk_norm)]);
  if (p.b2t) w.key("b2t").value(true);
  return w.end_object().str();
}

void describe_placement_spec_fields(json::Writer& w) {
  auto names = [&](const char* const* xs, size_t n) {
    w.key("choices").begin_array();
    for (size_t i = 0; i < n; ++i) w.value(xs[i]);
    w.end_array();
  };
  auto boolean = [&](const std::string& key, const char* doc) {
    w.key(key).begin_object().key("type").value("bool").key("default").value(false).key("doc").value(doc).end_object();
  };
  auto choice = [&](const char* key, const char* dflt, const char* const* xs, size_t n, const char* doc,
                    const char* when = nullptr, const char* when_is = nullptr) {
    w.key(key).begin_object().key("type").value("choice").key("default").value(dflt);
    names(xs, n);
    if (when) w.key("onlyWhen").begin_object().key(when).begin_array().value(when_is).end_array().end_object();
    w.key("doc").value(doc).end_object();
  };
  auto number = [&](const char* key, double dflt, double hi, bool zero_ok, const char* doc, const char* when,
                    const char* when_is) {
    w.key(key)
        .begin_object()
        .key("type")
        .value("number")
        .key("default")
        .exact(dflt)
        .key("min")
        .value(0.0)
        .key("max")
        .exact(hi);
    w.key("minExclusive").value(!zero_ok);
    w.key("onlyWhen").begin_object().key(when).begin_array().value(when_is).end_array().end_object();
    w.key("doc").value(doc).end_object();
  };
  w.begin_object();
  for (const char* sub : {"attention", "ffn"}) {
    const std::string s = sub;
    boolean(s + ".norm_input", "a norm on the sublayer's input: x + F(N(x))");
    boolean(s + ".norm_branch", "a norm on the sublayer's output, before the add: x + N(F(x))");
    boolean(s + ".norm_after", "a norm after the residual add: N(x + F(x))");
  }
  boolean("final_norm", "a norm before the output layer");
  choice("norm", "layernorm", kNormNames, 4,
         "the norm every slot uses (absent from a spec: the config's norm_type); dyt = gamma*tanh(alpha*x) + beta");
  number("norm.alpha0", Placement{}.alpha0, kMaxAlpha0, false, "DyT's alpha at init (learnable)", "norm", "dyt");
  choice("residual_scale", "one", kResidualNames, 5,
         "the residual branch's scale alpha(L): 1, Admin's omega, DeepNet's (2L)^(1/4), CompleteP's (L_base/L)^a, or "
         "a learnable ReZero gate");
  number("residual_scale.L_base", 1, kMaxLBase, false, "CompleteP: the depth L_base at which the multiplier is 1",
         "residual_scale", "completep");
  number("residual_scale.a", 1, kMaxExponent, false, "CompleteP: the exponent a of (L_base/L)^a", "residual_scale",
         "completep");
  number("residual_scale.g0", 0, kMaxG0, true, "ReZero: the gate's value at init (0: ReZero, 1: a plain residual)",
         "residual_scale", "rezero");
  choice("residual_scale.per", "sublayer", kGatePer, 2,
         "ReZero: one gate per sublayer, or one per layer shared by its two", "residual_scale", "rezero");
  choice("init_scale", "xavier", kInitNames, 4,
         "the branch's init scale beta: Xavier, DeepNet's (8L)^(-1/4), T-Fixup's (9L)^(-1/4), or zero");
  choice("qk_norm", "none", kQkNormNames, 3, "a norm on q and on k before the attention scores");
  boolean("b2t", "B2T: the layer's input added before its last norm (needs ffn.norm_after)");
  w.end_object();
}

void describe_placement_spec_rules(json::Writer& w) {
  w.begin_array();
  for (const SpecRule* r : kSpecRules)
    w.begin_object().key("name").value(r->name).key("kind").value("error").key("doc").value(r->doc).end_object();
  w.end_array();
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
