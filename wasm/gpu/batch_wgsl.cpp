// batch_wgsl.cpp — the run-batched rewrite of a WGSL kernel source; see batch_wgsl.h. A small
// hand-written scanner (no std::regex: it would add ~100 KB to the module) over the module's
// top-level declarations and function bodies.
#include "batch_wgsl.h"

#include <stdexcept>
#include <vector>

namespace lnx::gpu {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::logic_error("batched_wgsl: " + what); }

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool space_char(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Comments out (line and block), so that brackets and names inside them are not rewritten.
std::string strip_comments(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t e = s.find("*/", i + 2);
      if (e == std::string::npos) fail("unterminated block comment");
      i = e + 2;
    } else {
      out += s[i++];
    }
  }
  return out;
}

// The index of the bracket closing the one at `open` (one of ( [ { <).
size_t closing(const std::string& s, size_t open) {
  const char o = s[open];
  const char c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '>';
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    else if (s[i] == c && --depth == 0) return i;
  }
  fail(std::string("unbalanced ") + o);
}

size_t skip_space(const std::string& s, size_t i) {
  while (i < s.size() && space_char(s[i])) ++i;
  return i;
}

std::string ident_at(const std::string& s, size_t i) {
  size_t e = i;
  while (e < s.size() && ident_char(s[e])) ++e;
  return s.substr(i, e - i);
}

struct StorageVar {
  std::string name;
  unsigned binding;
  bool vec4;
};

// The declaration `@group(0) @binding(b) var<space…> name: type;` around position `var_at`.
struct Decl {
  size_t begin, end;  // [begin, end) covers the attributes through the ';'
  unsigned binding;
  std::string space, name, type;
};
Decl decl_at(const std::string& s, size_t var_at) {
  Decl d;
  const size_t b = s.rfind("@binding(", var_at);
  const size_t g = s.rfind("@group(", var_at);
  if (b == std::string::npos || g == std::string::npos || s.find_first_of(";}", g) < var_at)
    fail("a module-scope buffer without @group/@binding");
  d.begin = g;
  d.binding = 0;
  for (size_t k = b + 9; k < s.size() && s[k] >= '0' && s[k] <= '9'; ++k) d.binding = d.binding * 10 + (s[k] - '0');
  const size_t lt = s.find('<', var_at);
  const size_t gt = closing(s, lt);
  d.space = s.substr(lt + 1, gt - lt - 1);
  size_t i = skip_space(s, gt + 1);
  d.name = ident_at(s, i);
  i = skip_space(s, i + d.name.size());
  if (s[i] != ':') fail("declaration of " + d.name);
  d.end = s.find(';', i);
  d.type = s.substr(i + 1, d.end - i - 1);
  ++d.end;
  return d;
}

struct Function {
  size_t begin, end;  // [begin, end): from `fn` through the closing brace
  bool entry;
  std::string attributes;  // text between the previous declaration and `fn` (entry attributes)
};

// Top-level functions, in order.
std::vector<Function> functions(const std::string& s) {
  std::vector<Function> out;
  size_t prev_end = 0;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '{') {  // a struct body or the like at module scope
      i = closing(s, i) + 1;
      prev_end = i;
      continue;
    }
    if (s[i] == ';') {
      prev_end = ++i;
      continue;
    }
    if (s.compare(i, 3, "fn ") == 0 && (i == 0 || !ident_char(s[i - 1]))) {
      Function f;
      f.begin = i;
      f.attributes = s.substr(prev_end, i - prev_end);
      f.entry = f.attributes.find("@compute") != std::string::npos;
      const size_t body = s.find('{', s.find('(', i));
      f.end = closing(s, body) + 1;
      out.push_back(f);
      i = prev_end = f.end;
      continue;
    }
    ++i;
  }
  return out;
}

// The body with every storage access offset (entry: `lnx_rb_name`, a let; helper: the private
// `lnx_rbp_name`) and, in helpers, the uniform's name replaced by the private copy.
std::string rewrite_body(const std::string& s, const std::vector<StorageVar>& vars, const std::string& uniform,
                         bool entry) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (!ident_char(s[i]) || (i > 0 && (ident_char(s[i - 1]) || s[i - 1] == '.'))) {
      out += s[i++];
      continue;
    }
    const std::string id = ident_at(s, i);
    size_t j = i + id.size();
    const StorageVar* v = nullptr;
    for (const auto& x : vars)
      if (x.name == id) v = &x;
    const size_t k = skip_space(s, j);
    if (v && k < s.size() && s[k] == '[') {
      const size_t e = closing(s, k);
      out += id + "[" + (v->vec4 ? "lnx_at4(u32(" : "lnx_at(u32(") +
             rewrite_body(s.substr(k + 1, e - k - 1), vars, uniform, entry) +
             (entry ? "), lnx_span, lnx_lane)]" : "), lnx_span_p, lnx_lane_p)]");
      i = e + 1;
      continue;
    }
    out += (!entry && id == uniform) ? "lnx_P" : id;
    i = j;
  }
  return out;
}

// Splits a parameter list at its top-level commas.
std::vector<std::string> split_params(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (cur.find_first_not_of(" \t\n") != std::string::npos) out.push_back(cur);
  return out;
}

std::string rewrite_entry(const std::string& fn, const std::string& attributes, const std::string& uniform,
                          const std::string& body_rewritten) {
  const size_t ws = attributes.find("@workgroup_size(");
  if (ws != std::string::npos) {
    const size_t close = closing(attributes, ws + 15);
    if (split_params(attributes.substr(ws + 16, close - ws - 16)).size() > 2) fail("a workgroup deeper than 1 in z");
  }
  const size_t open = fn.find('('), close = closing(fn, open);
  std::string params, prologue;
  bool has_wid = false;
  for (std::string p : split_params(fn.substr(open + 1, close - open - 1))) {
    const size_t b = p.find("@builtin(");
    if (b != std::string::npos) {
      const std::string kind = ident_at(p, b + 9);
      const size_t n = skip_space(p, p.find(')', b) + 1);
      const std::string name = ident_at(p, n);
      const char* renamed = kind == "workgroup_id"           ? "lnx_wid"
                            : kind == "num_workgroups"       ? "lnx_nwg"
                            : kind == "global_invocation_id" ? "lnx_gid"
                                                             : nullptr;
      if (renamed) {
        p = p.substr(0, n) + renamed + p.substr(n + name.size());
        if (kind == "workgroup_id") {
          has_wid = true;
          prologue += "  let " + name + " = vec3<u32>(lnx_wid.x, lnx_wid.y, lnx_wid.z % lnx_bz);\n";
        } else if (kind == "num_workgroups") {
          prologue += "  let " + name + " = vec3<u32>(lnx_nwg.x, lnx_nwg.y, lnx_bz);\n";
        } else {
          prologue += "  let " + name + " = vec3<u32>(lnx_gid.x, lnx_gid.y, lnx_gid.z % lnx_bz);\n";
        }
      }
    }
    params += (params.empty() ? "" : ",") + p;
  }
  if (!has_wid) params += std::string(params.empty() ? "" : ", ") + "@builtin(workgroup_id) lnx_wid: vec3<u32>";
  std::string head = "\n  let lnx_bz = lnx_rs.bz;\n  let lnx_run = lnx_wid.z / lnx_bz;\n" + prologue;
  head += "  let " + uniform + " = lnx_pall[lnx_run].p;\n  lnx_P = " + uniform + ";\n";
  head += "  let lnx_span = 64u * lnx_rs.runs;\n  let lnx_lane = 64u * lnx_run;\n";
  head += "  lnx_span_p = lnx_span;\n  lnx_lane_p = lnx_lane;\n";
  const size_t brace = body_rewritten.find('{');
  return fn.substr(0, open + 1) + params + ")" + fn.substr(close + 1, fn.find('{', close) - close - 1) + "{" + head +
         body_rewritten.substr(brace + 1);
}

}  // namespace

std::string batched_wgsl(const std::string& source) {
  const std::string s = strip_comments(source);
  std::string uniform, uniform_type;
  std::vector<StorageVar> vars;
  std::vector<Decl> decls;
  for (size_t i = s.find("var<"); i != std::string::npos; i = s.find("var<", i + 4)) {
    if (i > 0 && ident_char(s[i - 1])) continue;
    const size_t lt = i + 3;
    const std::string space = s.substr(lt + 1, closing(s, lt) - lt - 1);
    if (space.compare(0, 7, "uniform") != 0 && space.compare(0, 7, "storage") != 0) continue;  // private, workgroup
    Decl d = decl_at(s, i);
    const std::string type = d.type.substr(skip_space(d.type, 0));
    if (space.compare(0, 7, "uniform") == 0) {
      if (d.binding != 0 || !uniform.empty()) fail("a uniform other than @binding(0)");
      uniform = d.name, uniform_type = type;
    } else {
      if (d.binding == 0 || d.binding >= kBatchParamsBinding) fail("storage at binding " + std::to_string(d.binding));
      if (type.compare(0, 6, "array<") != 0) fail("storage " + d.name + " is not an array");
      vars.push_back({d.name, d.binding, type.find("vec4") != std::string::npos});
    }
    decls.push_back(d);
  }
  if (uniform.empty()) fail("no uniform at @binding(0)");

  std::string out;
  size_t at = 0;
  const std::vector<Function> fns = functions(s);
  size_t f = 0;
  // Copy the module through, replacing the uniform's declaration and rewriting each function.
  while (at < s.size()) {
    size_t next = s.size();
    for (const auto& d : decls)
      if (d.begin >= at && d.begin < next && d.name == uniform) next = d.begin;
    if (f < fns.size() && fns[f].begin < next) next = fns[f].begin;
    out += s.substr(at, next - at);
    at = next;
    if (at >= s.size()) break;
    if (f < fns.size() && fns[f].begin == at) {
      const Function& fn = fns[f++];
      const std::string text = s.substr(fn.begin, fn.end - fn.begin);
      const size_t brace = text.find('{', text.find('('));
      const std::string body = text.substr(0, brace) + rewrite_body(text.substr(brace), vars, uniform, fn.entry);
      out += fn.entry ? rewrite_entry(text, fn.attributes, uniform, body.substr(brace)) : body;
      at = fn.end;
    } else {  // the uniform's declaration
      for (const auto& d : decls)
        if (d.begin == at) {
          out +=
              "struct lnx_Layout { bz: u32, runs: u32, _p0: u32, _p1: u32, };\n"
              "@group(0) @binding(0) var<uniform> lnx_rs: lnx_Layout;\n"
              "struct lnx_Pblk { @size(" +
              std::to_string(kBatchParamsBytes) + ") p: " + uniform_type +
              ", };\n"
              "@group(0) @binding(" +
              std::to_string(kBatchParamsBinding) +
              ") var<storage, read> lnx_pall: array<lnx_Pblk>;\n"
              "var<private> lnx_P: " +
              uniform_type + ";";
          at = d.end;
        }
    }
  }
  // Run r's element i of a binding that starts at a chunk boundary (device_batch.h's layout); `span`
  // = 64·R, `lane` = 64·r, in floats (a vec4 array counts 16 per chunk).
  out +=
      "\nvar<private> lnx_span_p: u32;\nvar<private> lnx_lane_p: u32;\n"
      "fn lnx_at(i: u32, span: u32, lane: u32) -> u32 { return (i >> 6u) * span + lane + (i & 63u); }\n"
      "fn lnx_at4(j: u32, span: u32, lane: u32) -> u32 {\n"
      "  return (j >> 4u) * (span >> 2u) + (lane >> 2u) + (j & 15u);\n}\n";
  return out;
}

}  // namespace lnx::gpu
