// presets.h — the named placement specs a reader can start from (the page's composer offers them;
// `lnx schema --json` and schemaJson() list them under "placement_presets"): every registered
// placement written as a spec, then the literature's, one JSON spec each in placements/presets/
// (b2t, completep, dyt, qknorm, rezero, tfixup; embedded at build time by cmake/embed_presets.cmake,
// so a new file is a new preset). A preset file is a spec as it is: `lnx train --placement-spec
// wasm/placements/presets/b2t.json --placement b2t`. docs/engine.md has what each one is.
// Leaves out: presets with a model size or training settings (a preset is a placement only).
#pragma once
#include <string>
#include <vector>

namespace lnx {

struct PlacementPreset {
  std::string name;    // the spec's name (a registered placement's is "<name>-spec": a spec cannot take it)
  std::string label;   // how the page shows it
  std::string doc;     // one line: what it is and where it comes from
  std::string source;  // "registry" (placements/registry.cpp), or the preset's file ("presets/b2t.json")
  std::string spec;    // the spec in its canonical form (spec.h), ready for the config field placement_spec
};

// Every preset, registered placements first (in registry order), then the files in name order.
// Throws std::logic_error if a preset file is not a valid spec (a test reads them all).
const std::vector<PlacementPreset>& placement_presets();

}  // namespace lnx
