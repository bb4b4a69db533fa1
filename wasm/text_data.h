// text_data.h — the toy's real text (docs/engine.md, "Real text"): byte-level text (vocab 256) of the
// page's own article, one file per language (public/data/text/article.<lang>.txt, written by
// scripts/gen-corpus.mjs), handed to the engine as bytes (set_text_corpus: the CLI reads the files,
// the page fetches them). Each language's text is split once, contiguously: its first 90% is the
// training split, its last 10% the held-out split. A batch is B random windows of n+1 bytes from the
// training split (inputs w[0..n−1], targets w[1..n]), drawn with the run's batch generator; the
// validation loss is the mean loss over a fixed set of held-out windows, evenly spaced, the same for
// every run and every thread count. The plateau line is the unigram entropy of the training split (in
// nats): the loss of a model that learns the byte frequencies and ignores the context.
// Leaves out: tokenizers (a byte is a token; a Chinese character is three), shuffling epochs (windows
// are drawn with replacement), windows across a language's end ("both" keeps each language's parts).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "json.h"
#include "rng.h"

namespace lnx {

// The data a toy run learns (the config field `data`): "markov" (markov.h) or "text".
std::vector<std::string> data_names();
// The languages of the text (the config field `text_lang`): "both" is en then zh.
std::vector<std::string> text_lang_names();

// Registers the text of one language ("en" or "zh"; ArgumentError for another, or for empty bytes),
// replacing an earlier one. Thread-safe; runs built before keep the text they were built with.
void set_text_corpus(const std::string& lang, const std::string& bytes);
// Records why the text of `lang` is not there, in the loader's terms (the CLI: "the folder --text-dir
// names ('texts') has no article.zh.txt"): a run that needs it is refused with that reason, naming
// text_lang. set_text_corpus replaces it.
void set_text_corpus_missing(const std::string& lang, const std::string& why);
// Forgets every registered text and reason (the tests: a text run then finds none).
void forget_text_corpora();

class TextData {
 public:
  static constexpr double kHeldOut = 0.1;  // the last tenth of each language's text
  static constexpr int kValWindows = 16;   // held-out windows per validation (rounded up to whole batches)

  // The text of `lang` ("en", "zh" or "both") as registered; ArgumentError naming text_lang when a
  // language's text is not registered, or when a split is shorter than a window of seq + 1 bytes.
  static std::shared_ptr<const TextData> of(const std::string& lang, int seq);
  // From bytes directly (the tests): one part per (language, text).
  TextData(const std::vector<std::pair<std::string, std::string>>& texts, int seq);

  // B windows of n + 1 training bytes (n = the seq it was made for): inputs and targets, B·n each.
  void sample(Rng& rng, int B, std::vector<int>& inputs, std::vector<int>& targets) const;
  // The validation windows for a model of `batch` sequences: kValWindows rounded up to whole batches.
  int val_windows(int batch) const { return (kValWindows + batch - 1) / batch * batch; }
  // Windows first … first + B − 1 of the `count` evenly spaced held-out windows.
  void val_batch(int first, int B, int count, std::vector<int>& inputs, std::vector<int>& targets) const;
  double unigram_entropy() const { return entropy_; }
  // {"lang", "bytes", "fnv1a64", "train_bytes", "held_out_bytes"} per language, as documents carry it.
  void write(json::Writer& w) const;

  // The byte ranges of the training split (the tests check the sampler reads only these).
  struct Part {
    std::string lang;
    std::string bytes;     // the whole text of the language
    size_t train_end = 0;  // [0, train_end) trains, [train_end, size) is held out
  };
  const std::vector<Part>& parts() const { return parts_; }

 private:
  // Writes the window that starts k-th among the valid starts [lo, hi) = range(part) of the parts.
  template <class Range>
  void window(uint64_t k, int* in, int* tg, Range range) const;
  std::vector<Part> parts_;
  int n_;
  double entropy_ = 0;
  uint64_t train_starts_ = 0, val_starts_ = 0;
};

// FNV-1a, 64 bits: the hash the documents record of each text file.
uint64_t fnv1a64(const std::string& bytes);

}  // namespace lnx
