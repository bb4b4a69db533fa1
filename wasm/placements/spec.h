// spec.h — a placement from a JSON spec (the config field `placement_spec`, `lnx … --placement-spec
// FILE`): the same data as a registered placement (placement.h), checked field by field, so a reader
// can try a placement the engine does not list without writing C++. docs/engine.md ("A placement
// from a spec") has the format and the source of each formula:
//
//   {"name": "sandwich", "label": "Sandwich-LN",
//    "attention": {"norm_input": true, "norm_branch": true, "norm_after": false},
//    "ffn": {"norm_input": true, "norm_branch": true, "norm_after": false},
//    "final_norm": true, "residual_scale": "one", "init_scale": "xavier", "norm": "rmsnorm"}
//
// residual_scale: "one", "admin", "deepnet", {"kind": "completep", "L_base": 4, "a": 1}, or
// "rezero" / {"kind": "rezero", "g0": 0, "per": "sublayer" | "layer"} (a learnable gate);
// init_scale: "xavier", "deepnet", "tfixup", "zero"; norm (optional): "layernorm", "rmsnorm", "none",
// "dyt" / {"kind": "dyt", "alpha0": 0.5} (else the config's norm_type); qk_norm: "none", "layernorm",
// "rmsnorm"; b2t: true or false (only with ffn.norm_after). Every key is optional but must be known;
// messages name the key ("placement_spec.residual_scale.a = 0 is out of range (0, 4]").
#pragma once
#include <memory>
#include <string>

#include "../json.h"
#include "placement.h"

namespace lnx {

constexpr size_t kMaxPlacementSpecChars = 4096;  // a spec is a few hundred characters

// A spec's placement, owning the strings its Placement points at.
struct SpecPlacement {
  std::string name, label, doc;
  Placement p{};
  SpecPlacement() = default;
  SpecPlacement(const SpecPlacement&) = delete;
  SpecPlacement& operator=(const SpecPlacement&) = delete;
};

// Reads and checks a spec; ArgumentError naming the key ("placement_spec.ffn.norm_after must be a
// boolean") otherwise. The name must not be a registered placement's.
std::shared_ptr<const SpecPlacement> read_placement_spec(const json::Value& spec);
// The same from text (a string config value or a file): malformed JSON and oversized text refused.
std::shared_ptr<const SpecPlacement> read_placement_spec(const std::string& text);
// A placement written as a spec, every key explicit (the canonical form configs keep and documents
// carry); `name` replaces its name when given.
std::string placement_spec_json(const Placement& p, const char* name = nullptr);
// The spec's keys as a flat table, each a config field as the schema describes one (schema.h): its
// dotted path ("attention.norm_input", "residual_scale.a"), type ("bool", "choice", "number"),
// default, bounds or choices, doc and, for a kind's parameter, onlyWhen its kind. `lnx schema --json`
// writes it as "placement_spec_fields"; the page's composer builds its controls from it.
void describe_placement_spec_fields(json::Writer& w);
// The spec's rules across its keys, [{name, kind, doc}]: a spec that breaks one is refused with a
// RuleError of that name.
void describe_placement_spec_rules(json::Writer& w);
// The name of the placement a canonical spec gives ("" for no spec).
std::string placement_spec_name(const std::string& canonical);
// The placement a model config's `placement` names: the spec's when it is the spec's name, else the
// registry's (which it does not own).
std::shared_ptr<const Placement> resolve_placement(const std::string& name, const std::string& spec);

}  // namespace lnx
