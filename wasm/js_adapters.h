// js_adapters.h — adapters between the engine API (api.h) and JavaScript, and the Embind helpers
// that register them; used only by bindings.cpp (and by gpu/gpu_adapters.h for the GPU's).
//
// Why they exist: Embind in Emscripten 3.1.6 does not turn a C++ exception into a JS Error (JS sees
// a bare number), so every entry point catches and rethrows as `new Error("lnx: …")` with the
// message. Configs arrive as JSON strings and go through the same parsers as the CLI's flags, so the
// page and `lnx` validate identically. Results leave as JSON strings (docs/json-schema.md).
#pragma once
#include <emscripten/bind.h>
#include <emscripten/em_asm.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "api.h"

namespace lnx::js {

// The message of the error being thrown to JavaScript. A JS exception unwinds the wasm frames
// without running C++ destructors, so nothing that owns memory may be alive in the frame that
// throws: the message waits here (one buffer per thread, reused), the C++ exception is destroyed
// when its catch block ends, and only then does the JS throw happen (the Embind invoker's copy of
// a string argument is the one allocation that still cannot be freed; docs/robustness.md).
inline thread_local std::string t_js_error;

[[noreturn]] inline void throw_pending_js_error() {
  EM_ASM({ throw new Error(UTF8ToString($0)); }, t_js_error.c_str());
  __builtin_unreachable();
}

// The JS Error's message for a C++ exception (into t_js_error): an ArgumentError's own, out of memory,
// or an internal error with what it says.
inline void set_js_error(const std::exception& e) {
  if (dynamic_cast<const ArgumentError*>(&e)) t_js_error.assign("lnx: ").append(e.what());
  else if (dynamic_cast<const std::bad_alloc*>(&e))
    t_js_error.assign("lnx: out of memory (the configuration is too large for this browser tab)");
  else t_js_error.assign("lnx: internal error: ").append(e.what());
}

// Runs f(); any C++ exception becomes a JS Error carrying its message.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    set_js_error(e);
  }
  throw_pending_js_error();
}

inline int check_count(double k, const char* what) {
  if (!(k >= 1 && k <= 1e6) || k != static_cast<int>(k))
    throw ArgumentError(std::string(what) + " must be an integer in [1, 1000000]");
  return static_cast<int>(k);
}

// resultJson(from)'s index from JS, where the per-step arrays start (streaming): a number in [0, 1e9),
// truncated; anything else (NaN, negative, too large) is 0, the whole arrays.
inline int from_step(double from) { return from >= 0 && from < 1e9 ? static_cast<int>(from) : 0; }

class Probe {
 public:
  explicit Probe(const std::string& config) : run_(probe_config_from_json(config)) {}
  double step(double batches) {
    return guarded([&] { return run_.step(check_count(batches, "batches")); });
  }
  bool done() const { return run_.done(); }
  double progress() const { return run_.progress(); }
  std::string result_json() const {
    return guarded([&] { return run_.result_json(); });
  }
  std::string handoff_json() const {
    return guarded([&] { return run_.handoff_json(); });
  }
  void continue_from(const std::string& handoff, const std::string& backend) {
    guarded([&] {
      if (backend != "webgpu") throw ArgumentError("backend must be \"webgpu\" (the one backend a probe moves from)");
      run_.continue_from(handoff, backend);
    });
  }

 private:
  ProbeRun run_;
};

// A checkpoint as JS sees it: {step, values: Float32Array}, the values copied out of the wasm heap.
inline emscripten::val checkpoint_value(const TrainCheckpoint& c) {
  emscripten::val o = emscripten::val::object();
  o.set("step", c.step);
  o.set(
      "values",
      emscripten::val(emscripten::typed_memory_view(c.values.size(), c.values.data())).call<emscripten::val>("slice"));
  return o;
}

// A checkpoint from JS: null/undefined, or {step, values: Float32Array} (one copy into the heap).
inline bool checkpoint_from(const emscripten::val& v, TrainCheckpoint& out) {
  if (v.isNull() || v.isUndefined()) return false;
  if (v.typeOf().as<std::string>() != "object") throw ArgumentError("a checkpoint must be {step, values}");
  const emscripten::val step = v["step"], values = v["values"];
  if (step.typeOf().as<std::string>() != "number" || !values.instanceof (emscripten::val::global("Float32Array")))
    throw ArgumentError("a checkpoint must be {step: a number, values: a Float32Array}");
  const double s = step.as<double>();
  if (!(s >= 0 && s <= 1e7) || s != static_cast<int>(s))
    throw ArgumentError("a checkpoint's step must be a step count");
  out.step = static_cast<int>(s);
  out.values = emscripten::convertJSArrayToNumberVector<float>(values);
  return true;
}

class Train {
 public:
  explicit Train(const std::string& config) : run_(train_config_from_json(config)) {}
  int step(double k) {
    return guarded([&] { return run_.step(check_count(k, "k")); });
  }
  std::string status() const { return to_string(run_.status()); }
  std::string result_json(double from) const {
    return guarded([&] { return run_.result_json(from_step(from)); });
  }
  void set_checkpoint_every(double steps) {
    guarded([&] {
      run_.set_checkpoint_every(check_count(steps, "checkpointEvery"));
      return 0;
    });
  }
  emscripten::val take_checkpoint() {
    return run_.take_checkpoint(ckpt_) ? checkpoint_value(ckpt_) : emscripten::val::null();
  }

 private:
  TrainRun run_;
  TrainCheckpoint ckpt_;  // reused between takes
};

class Grid {
 public:
  explicit Grid(const std::string& config) : run_(grid_config_from_json(config)) {}
  double step(double k) {
    return guarded([&] { return run_.step(check_count(k, "k")); });
  }
  // GridRun::continue_run; checkpoint: null or {step, values} (GpuTrainRun.takeCheckpoint()).
  void continue_run(double run, const std::string& run_json, const emscripten::val& checkpoint,
                    const std::string& backend) {
    guarded([&] {
      // the cheap checks before the checkpoint's values are copied into the heap
      if (!(run >= 0 && run < 1e6) || run != static_cast<int>(run)) throw ArgumentError("run must be a run index");
      if (backend != "webgpu") throw ArgumentError("backend must be \"webgpu\" (the one backend a run moves from)");
      TrainCheckpoint c;
      const bool has = checkpoint_from(checkpoint, c);
      run_.continue_run(static_cast<int>(run), run_json, has ? &c : nullptr, backend);
      return 0;
    });
  }
  bool done() const { return run_.done(); }
  double progress() const { return run_.progress(); }
  std::string result_json(double from) const {
    return guarded([&] { return run_.result_json(from_step(from)); });
  }

 private:
  GridRun run_;
};

class GridDoc {
 public:
  explicit GridDoc(const std::string& config) : doc_(grid_config_from_json(config)) {}
  int runs() const { return doc_.runs(); }
  int steps_held(double run) const {
    return guarded([&] { return doc_.steps_held(run_index(run)); });
  }
  void append(double run, const std::string& train_json) {
    guarded([&] {
      doc_.append(run_index(run), train_json);
      return 0;
    });
  }
  bool done() const { return doc_.done(); }
  double progress() const { return doc_.progress(); }
  // backend: "" (none) or "webgpu", recorded in the document's engine header
  std::string result_json(double from, const std::string& backend) const {
    return guarded([&] {
      if (!backend.empty() && backend != "webgpu") throw ArgumentError("backend must be \"\" or \"webgpu\"");
      return doc_.result_json(from_step(from), backend.empty() ? nullptr : "webgpu");
    });
  }

 private:
  int run_index(double run) const {
    if (!(run >= 0 && run < doc_.runs()) || run != static_cast<int>(run))
      throw ArgumentError("run must be an integer in [0, " + std::to_string(doc_.runs() - 1) + "]");
    return static_cast<int>(run);
  }
  GridDocument doc_;
};

// An experiment on the article's inferences (experiments/): name and JSON config, as `lnx exp`.
class Exp {
 public:
  Exp(const std::string& name, const std::string& config) : run_(name, config) {}
  double step(double work) {
    return guarded([&] { return run_.step(check_count(work, "work")); });
  }
  bool done() const { return run_.done(); }
  double progress() const { return run_.progress(); }
  std::string result_json() const {
    return guarded([&] { return run_.result_json(); });
  }

 private:
  ExperimentRun run_;
};

inline std::string experiment_names_js() {
  std::string out = "[";
  for (const auto& n : experiment_names()) out += (out.size() > 1 ? ",\"" : "\"") + n + "\"";
  return out + "]";
}

inline std::string schema_js() {
  return guarded([&] { return schema_json(); });
}

// Factories used as Embind constructors, so an invalid config throws a JS Error from `new`.
inline Probe* make_probe(const std::string& c) {
  return guarded([&] { return new Probe(c); });
}
inline Train* make_train(const std::string& c) {
  return guarded([&] { return new Train(c); });
}
inline Grid* make_grid(const std::string& c) {
  return guarded([&] { return new Grid(c); });
}
inline Exp* make_experiment(const std::string& name, const std::string& c) {
  return guarded([&] { return new Exp(name, c); });
}
inline GridDoc* make_grid_document(const std::string& c) {
  return guarded([&] { return new GridDoc(c); });
}

inline std::string grid_plan_js(const std::string& c) {
  return guarded([&] { return grid_plan_json(c); });
}
inline std::string check_config_js(const std::string& kind, const std::string& c) {
  return guarded([&] { return check_config_json(kind, c); });
}

inline void set_threads_js(double n) {
  guarded([&] {
    if (!(n >= 0 && n <= 256) || n != static_cast<int>(n))
      throw ArgumentError("threads must be an integer in [0, 256]");
    set_threads(static_cast<int>(n));
    return 0;
  });
}

// The article's text in `lang` (text_data.h): the bytes arrive as a Uint8Array (Embind takes one as a
// std::string's bytes).
inline void set_text_corpus_js(const std::string& lang, const std::string& bytes) {
  guarded([&] {
    set_text_corpus(lang, bytes);
    return 0;
  });
}

// The Embind registration of a run class T made by `make` (a factory above), with the methods every
// run has: step and resultJson. The helpers below add their kind's; the caller chains the class's own.
template <class T, class Make>
emscripten::class_<T> run_class(const char* name, Make make) {
  return emscripten::class_<T>(name)
      .constructor(make, emscripten::allow_raw_pointers())
      .function("step", &T::step)
      .function("resultJson", &T::result_json);
}

// A run the page steps to its end: done, progress.
template <class T, class Make>
emscripten::class_<T> stepped_class(const char* name, Make make) {
  return run_class<T>(name, make).function("done", &T::done).function("progress", &T::progress);
}

// A training run (Train, and the GPU's GpuTrain and GpuBatch): status and the checkpoints.
template <class T, class Make>
emscripten::class_<T> training_class(const char* name, Make make) {
  return run_class<T>(name, make)
      .function("status", &T::status)
      .function("setCheckpointEvery", &T::set_checkpoint_every)
      .function("takeCheckpoint", &T::take_checkpoint);
}

}  // namespace lnx::js
