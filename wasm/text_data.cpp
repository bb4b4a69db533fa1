// text_data.cpp — the registered texts, their splits, the window sampler and the unigram entropy
// (text_data.h says what each is).
#include "text_data.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>

#include "config.h"

namespace lnx {
namespace {

std::mutex g_mutex;
std::map<std::string, std::shared_ptr<const std::string>>& registry() {
  static std::map<std::string, std::shared_ptr<const std::string>> texts;
  return texts;
}
// Why a language's text is not registered, as its loader said (set_text_corpus_missing).
std::map<std::string, std::string>& missing() {
  static std::map<std::string, std::string> why;
  return why;
}
void check_lang(const std::string& lang) {
  if (lang != "en" && lang != "zh")
    throw ArgumentError("a text's language must be \"en\" or \"zh\" (the languages of text_lang)");
}

}  // namespace

std::vector<std::string> data_names() { return {"markov", "text"}; }
std::vector<std::string> text_lang_names() { return {"en", "zh", "both"}; }

uint64_t fnv1a64(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

void set_text_corpus(const std::string& lang, const std::string& bytes) {
  check_lang(lang);
  if (bytes.empty()) throw ArgumentError("text_lang = " + lang + ": the article's text is empty");
  std::lock_guard<std::mutex> lock(g_mutex);
  registry()[lang] = std::make_shared<const std::string>(bytes);
  missing().erase(lang);
}

void set_text_corpus_missing(const std::string& lang, const std::string& why) {
  check_lang(lang);
  std::lock_guard<std::mutex> lock(g_mutex);
  registry().erase(lang);
  missing()[lang] = why;
}

void forget_text_corpora() {
  std::lock_guard<std::mutex> lock(g_mutex);
  registry().clear();
  missing().clear();
}

std::shared_ptr<const TextData> TextData::of(const std::string& lang, int seq) {
  std::vector<std::pair<std::string, std::string>> texts;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (const std::string& l :
         lang == "both" ? std::vector<std::string>{"en", "zh"} : std::vector<std::string>{lang}) {
      auto it = registry().find(l);
      auto why = missing().find(l);
      if (it == registry().end() && why != missing().end())
        throw ArgumentError("text_lang = " + lang + ": the article's text in \"" + l + "\" is missing: " + why->second);
      if (it == registry().end())
        throw ArgumentError("text_lang = " + lang + ": the article's text in \"" + l +
                            "\" is not loaded (the CLI reads public/data/text/article." + l +
                            ".txt, or the folder --text-dir names; the page fetches it)");
      texts.emplace_back(l, *it->second);
    }
  }
  return std::make_shared<const TextData>(texts, seq);
}

TextData::TextData(const std::vector<std::pair<std::string, std::string>>& texts, int seq) : n_(seq) {
  std::vector<double> count(256, 0.0);
  double total = 0;
  for (const auto& [lang, t] : texts) {
    Part p;
    p.lang = lang;
    p.bytes = t;
    p.train_end = t.size() - static_cast<size_t>(std::floor(kHeldOut * static_cast<double>(t.size())));
    const size_t held = t.size() - p.train_end;
    if (p.train_end < static_cast<size_t>(seq) + 1 || held < static_cast<size_t>(seq) + 1)
      throw ArgumentError("seq = " + std::to_string(seq) + " is too long for the article's text in \"" + lang + "\" (" +
                          std::to_string(t.size()) + " bytes): its held-out tenth has " + std::to_string(held) +
                          " bytes, and a window needs seq + 1 = " + std::to_string(seq + 1));
    train_starts_ += p.train_end - seq;  // a window [s, s + seq] within [0, train_end)
    val_starts_ += held - seq;
    for (size_t i = 0; i < p.train_end; ++i) count[static_cast<unsigned char>(t[i])] += 1;
    total += static_cast<double>(p.train_end);
    parts_.push_back(std::move(p));
  }
  for (double c : count)
    if (c > 0) entropy_ -= c / total * std::log(c / total);
}

template <class Range>
void TextData::window(uint64_t k, int* in, int* tg, Range range) const {
  for (const Part& p : parts_) {
    const auto [lo, hi] = range(p);
    const uint64_t starts = hi - lo;
    if (k >= starts) {
      k -= starts;
      continue;
    }
    const unsigned char* w = reinterpret_cast<const unsigned char*>(p.bytes.data()) + lo + k;
    for (int i = 0; i < n_; ++i) in[i] = w[i], tg[i] = w[i + 1];
    return;
  }
}

void TextData::sample(Rng& rng, int B, std::vector<int>& inputs, std::vector<int>& targets) const {
  inputs.resize(static_cast<size_t>(B) * n_);
  targets.resize(static_cast<size_t>(B) * n_);
  for (int b = 0; b < B; ++b) {
    // a start uniform over every training window (the split has far fewer than 2^32 bytes)
    const uint64_t k = rng.below(static_cast<uint32_t>(train_starts_));
    window(k, &inputs[static_cast<size_t>(b) * n_], &targets[static_cast<size_t>(b) * n_],
           [&](const Part& p) { return std::pair<size_t, size_t>(0, p.train_end - n_); });
  }
}

void TextData::val_batch(int first, int B, int count, std::vector<int>& inputs, std::vector<int>& targets) const {
  inputs.resize(static_cast<size_t>(B) * n_);
  targets.resize(static_cast<size_t>(B) * n_);
  for (int b = 0; b < B; ++b) {
    const uint64_t k = static_cast<uint64_t>(first + b) * val_starts_ / static_cast<uint64_t>(count);
    window(k, &inputs[static_cast<size_t>(b) * n_], &targets[static_cast<size_t>(b) * n_],
           [&](const Part& p) { return std::pair<size_t, size_t>(p.train_end, p.bytes.size() - n_); });
  }
}

void TextData::write(json::Writer& w) const {
  w.begin_array();
  for (const Part& p : parts_) {
    char hash[19];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(p.bytes)));
    w.begin_object().key("lang").value(p.lang).key("bytes").value(static_cast<uint64_t>(p.bytes.size()));
    w.key("fnv1a64").value(hash).key("train_bytes").value(static_cast<uint64_t>(p.train_end));
    w.key("held_out_bytes").value(static_cast<uint64_t>(p.bytes.size() - p.train_end)).end_object();
  }
  w.end_array();
}

}  // namespace lnx
