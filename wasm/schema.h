// schema.h — a config's fields declared once: name, type, bounds, one-line doc, and where the value
// lives in the config struct. Everything else is derived from that one declaration (configs.cpp):
// reading a JSON config with its error messages, validate(), writing the config back into result
// documents, the CLI's flags and usage text (cli/lnx.cpp), `lnx schema --json` / `schemaJson()`, the
// generated TypeScript module the page's forms and permalinks use (scripts/gen-schema.mjs) and the
// reference tables of docs/json-schema.md.
//
// Defaults are not repeated here: they are the member initialisers of the config structs (api.h),
// read off a default-constructed config when the schema is printed.
//
// A field is data (a Spec) plus one function that returns the address of its value inside a config;
// reading, checking and writing a value are written once, per type, in schema.cpp, so the engine
// (and the wasm module) carries no per-field code beyond that address function.
// One field may hold a nested object (Type::Object: a placement spec), kept as its canonical JSON
// text and checked by the field's own reader. Leaves out: other nested objects, optional values
// without a default.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "config.h"
#include "json.h"

namespace lnx::schema {

// How a value is stored: Int int, UInt uint64_t, Number double, Choice std::string (one of
// choices()), Enum an enum class whose values are 0, 1, … in the order of `names`, and lists of
// those as std::vector; Object a JSON object (or a string holding one) as its canonical text in a
// std::string, "" when absent (then documents leave the key out).
enum class Type { Int, UInt, Number, Choice, Enum, IntList, UIntList, NumberList, ChoiceList, Object };
const char* to_string(Type);
bool is_list(Type);

struct Spec {
  std::string name;
  Type type = Type::Int;
  std::string doc;
  double min = 0, max = 0;                          // numbers and list entries
  bool min_exclusive = false;                       // (min, max] instead of [min, max]
  int max_items = 0;                                // lists: 1 … max_items entries, no duplicates
  std::vector<std::string> (*choices)() = nullptr;  // Choice: looked up when needed (registries grow)
  std::vector<std::string> names;                   // Enum: the fixed names
  // Object: checks a value (ArgumentError naming the key) and returns its canonical text.
  std::string (*read_object)(const json::Value&) = nullptr;
  // Where a field only means something for some values of another field: "optimizer" ∈ {"adam"}.
  std::string only_when_key;
  std::vector<std::string> only_when_values;

  std::vector<std::string> allowed() const { return choices ? choices() : names; }
};

Spec int_spec(const char* name, long lo, long hi, const char* doc);
Spec uint_spec(const char* name, uint64_t hi, const char* doc);  // hi ≤ 2^53 (JSON numbers carry it exactly)
Spec number_spec(const char* name, double lo, double hi, bool lo_exclusive, const char* doc);
Spec choice_spec(const char* name, std::vector<std::string> (*choices)(), const char* doc);
Spec enum_spec(const char* name, std::initializer_list<const char*> names, const char* doc);
Spec int_list_spec(const char* name, long lo, long hi, int max_items, const char* doc);
Spec uint_list_spec(const char* name, uint64_t hi, int max_items, const char* doc);
Spec number_list_spec(const char* name, double lo, double hi, bool lo_exclusive, int max_items, const char* doc);
Spec choice_list_spec(const char* name, std::vector<std::string> (*choices)(), int max_items, const char* doc);
Spec object_spec(const char* name, std::string (*read_object)(const json::Value&), const char* doc);
// The same spec, meaningful only when the choice field `key` has one of `values` (an optimizer's
// hyperparameter); documents leave it out otherwise.
Spec only_when(Spec s, std::string key, std::vector<std::string> values);

// A value of the type a Spec describes, at `p`: JSON → value (the kind is checked, then the bounds),
// bounds/choices/duplicates of the stored value, value → JSON.
void set_value(const Spec& s, void* p, const json::Value& v);
// `extra`: choices this config adds to the field's own (a placement spec's name).
void check_value(const Spec& s, const void* p, const std::vector<std::string>& extra = {});
void write_value(json::Writer& w, const Spec& s, const void* p);

template <class C>
struct Field {
  Spec spec;
  void* (*at)(C& config, const Spec& spec);  // the address of this field's value
  // Choice fields: what this config adds to the field's choices (a placement spec's name); or none.
  std::vector<std::string> (*extra_choices)(const C& config) = nullptr;
  const void* at_const(const C& c) const { return at(const_cast<C&>(c), spec); }
};

// A rule across fields: a hard error (check throws ArgumentError) or a warning (warn returns sentences).
template <class C>
struct Rule {
  std::string name, doc;
  std::function<void(const C&)> check;
  std::function<std::vector<std::string>(const C&)> warn;
};

template <class C>
struct Schema {
  std::string name;  // "model", "probe", "train", "grid"
  std::string doc;
  std::vector<Field<C>> fields;
  std::vector<Rule<C>> rules;

  const Field<C>* find(const std::string& key) const {
    for (const auto& f : fields)
      if (f.spec.name == key) return &f;
    return nullptr;
  }
};

// Appends a field. Out of line on purpose: a schema is built once, and inlining every field's
// construction (strings, vectors and their unwinding) into each config's builder cost the wasm
// module tens of kilobytes per config.
template <class C>
[[gnu::noinline]] void add_field(Schema<C>& s, Spec spec, void* (*at)(C&, const Spec&),
                                 std::vector<std::string> (*extra_choices)(const C&) = nullptr) {
  s.fields.push_back({std::move(spec), at, extra_choices});
}

// ---- what a schema gives ---------------------------------------------------------------------

// Bounds, choices and cross-field rules; throws ArgumentError naming the first problem.
template <class C>
void validate(const Schema<C>& s, const C& c) {
  for (const auto& f : s.fields)
    check_value(f.spec, f.at_const(c), f.extra_choices ? f.extra_choices(c) : std::vector<std::string>{});
  for (const auto& r : s.rules) {
    if (!r.check) continue;
    try {
      r.check(c);
    } catch (const RuleError&) {
      throw;  // a nested config's rule keeps its own name
    } catch (const ArgumentError& e) {
      throw RuleError(r.name, e.what());
    }
  }
}

// The sentences of every warning rule that applies (e.g. a warm-up longer than the run).
template <class C>
std::vector<std::string> warnings(const Schema<C>& s, const C& c) {
  std::vector<std::string> out;
  for (const auto& r : s.rules)
    if (r.warn)
      for (auto& w : r.warn(c)) out.push_back(std::move(w));
  return out;
}

// Each warning rule that applies, as {"rule", "message"}, under the key "warnings" of the object
// being written (check_config_json's answer).
template <class C>
void write_warnings(json::Writer& w, const Schema<C>& s, const C& c) {
  w.key("warnings").begin_array();
  for (const auto& r : s.rules)
    if (r.warn)
      for (const auto& m : r.warn(c)) w.begin_object().key("rule").value(r.name).key("message").value(m).end_object();
  w.end_array();
}

[[noreturn]] void unknown_key(const std::string& key, const std::vector<std::string>& known);
// null means "the default" for every key, and so does "" for a choice (a form's empty select).
bool means_default(const Spec& s, const json::Value& v);

// A JSON config → C: unknown keys are refused (naming the known ones), missing keys and the values
// of means_default() keep the default, then validate().
template <class C>
C parse(const Schema<C>& s, const std::string& text, C c = C{}) {
  const json::Value v = json::parse(text);
  for (const auto& kv : v.obj) {
    const Field<C>* f = s.find(kv.first);
    if (!f) {
      std::vector<std::string> known;
      for (const auto& g : s.fields) known.push_back(g.spec.name);
      unknown_key(kv.first, known);
    }
    if (means_default(f->spec, kv.second)) continue;
    set_value(f->spec, f->at(c, f->spec), kv.second);
  }
  validate(s, c);
  return c;
}

// Whether field f means something for c (its only_when condition, if any, holds).
template <class C>
bool applies(const Schema<C>& s, const Field<C>& f, const C& c) {
  if (f.spec.only_when_key.empty()) return true;
  const Field<C>* cond = s.find(f.spec.only_when_key);
  if (!cond || cond->spec.type != Type::Choice) return true;
  const std::string& value = *static_cast<const std::string*>(cond->at_const(c));
  for (const auto& v : f.spec.only_when_values)
    if (value == v) return true;
  return false;
}

// Writes every field of c (in declaration order) into the object being written; fields whose
// only_when condition does not hold are left out (an SGD run carries no beta1).
template <class C>
void write_fields(json::Writer& w, const Schema<C>& s, const C& c) {
  for (const auto& f : s.fields) {
    if (!applies(s, f, c)) continue;
    if (f.spec.type == Type::Object && static_cast<const std::string*>(f.at_const(c))->empty()) continue;
    w.key(f.spec.name);
    write_value(w, f.spec, f.at_const(c));
  }
}

// {"name", "doc", "fields": [{"name","type","default","min","max","min_exclusive","max_items",
//  "choices","only_when","doc"}], "rules": [{"name","kind","doc"}]}; defaults read off `defaults`.
void describe_field(json::Writer& w, const Spec& s, const void* default_value);
template <class C>
void describe(json::Writer& w, const Schema<C>& s, const C& defaults = C{}) {
  w.begin_object().key("name").value(s.name).key("doc").value(s.doc).key("fields").begin_array();
  for (const auto& f : s.fields) describe_field(w, f.spec, f.at_const(defaults));
  w.end_array().key("rules").begin_array();
  for (const auto& r : s.rules)
    w.begin_object()
        .key("name")
        .value(r.name)
        .key("kind")
        .value(r.check ? "error" : "warning")
        .key("doc")
        .value(r.doc)
        .end_object();
  w.end_array().end_object();
}

// ---- the command line ------------------------------------------------------------------------
// "--d-ff" ↔ "d_ff".
std::string flag_of(const std::string& key);
std::string key_of_flag(const std::string& flag);
// A flag's text value → the JSON value the field reads: lists split at commas, numbers kept as
// numbers (strictly: "1e-3" yes, "1e-3x" no), choices as strings.
std::string cli_value_json(const Spec& s, const std::string& text);
// "[--layers 8]" for one field (its default), or "[--attention bidirectional|causal]" for a choice.
std::string usage_item(const Spec& s, const void* default_value);
// The usage items of every field, wrapped at `width` columns and indented by `indent`.
std::string wrap_items(const std::vector<std::string>& items, size_t indent, size_t width = 100);
template <class C>
std::string usage(const Schema<C>& s, const C& defaults, size_t indent) {
  std::vector<std::string> items;
  for (const auto& f : s.fields) items.push_back(usage_item(f.spec, f.at_const(defaults)));
  return wrap_items(items, indent);
}

}  // namespace lnx::schema
