// registry.cpp — the list of placements, in the order documents and figures show them. Adding a
// placement: a file like post.cpp and one line below (README.md, "Adding a placement").
#include <memory>

#include "../config.h"
#include "placement.h"

namespace lnx {

extern const Placement kPostLn;
extern const Placement kPreLn;
extern const Placement kPeriLn;
extern const Placement kDeepNorm;
extern const Placement kAdmin;

namespace {
std::vector<const Placement*>& list() {
  static std::vector<const Placement*> all = {
      &kPostLn, &kPreLn, &kPeriLn, &kDeepNorm, &kAdmin,
  };
  return all;
}
}  // namespace

const std::vector<const Placement*>& placements() { return list(); }

std::vector<std::string> placement_names() {
  std::vector<std::string> out;
  for (const Placement* p : list()) out.push_back(p->name);
  return out;
}

const Placement& placement(const std::string& name) {
  for (const Placement* p : list())
    if (name == p->name) return *p;
  std::string known;
  for (const Placement* p : list()) known += (known.empty() ? "\"" : ", \"") + std::string(p->name) + "\"";
  throw ArgumentError("placement must be one of " + known);
}

void register_placement(const Placement& p) {
  for (const Placement* q : list())
    if (std::string(q->name) == p.name)
      throw ArgumentError("placement \"" + std::string(p.name) + "\" is already registered");
  list().push_back(&p);
}

}  // namespace lnx
