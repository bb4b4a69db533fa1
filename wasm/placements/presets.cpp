// presets.cpp — the placement presets of presets.h: the registry's placements as specs, and the
// literature's from the embedded files (generated/placement_presets.cpp, made by
// cmake/embed_presets.cmake from placements/presets/*.json).
#include "presets.h"

#include <stdexcept>

#include "../config.h"
#include "spec.h"

namespace lnx {
namespace presets {
extern const char* const kFiles[];
extern const char* const kTexts[];
extern const int kCount;
}  // namespace presets

namespace {

std::vector<PlacementPreset> make() {
  std::vector<PlacementPreset> out;
  for (const Placement* p : placements()) {
    const std::string name = std::string(p->name) + "-spec";
    out.push_back({name, p->label, p->doc, "registry", placement_spec_json(*p, name.c_str())});
  }
  for (int i = 0; i < presets::kCount; ++i) {
    const std::string file = std::string("presets/") + presets::kFiles[i];
    std::shared_ptr<const SpecPlacement> s;
    try {
      s = read_placement_spec(std::string(presets::kTexts[i]));
    } catch (const ArgumentError& e) {
      throw std::logic_error("placement preset " + file + ": " + e.what());
    }
    out.push_back({s->name, s->label, s->doc, file, placement_spec_json(s->p)});
  }
  return out;
}

}  // namespace

const std::vector<PlacementPreset>& placement_presets() {
  static const std::vector<PlacementPreset> all = make();
  return all;
}

}  // namespace lnx
